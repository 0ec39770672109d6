extension GrantState {
    /// The state as every ledger storage writes it: `grant_state` (`unfinished`, `granted`,
    /// `revokedBeforeGrant`), `unfinished_reason` (`awaitingGrant`, `decisionFailed`,
    /// `invalidGrant`, or nil once finished) and `unfinished_detail`.
    public var columns: (state: String, reason: String?, detail: String?) {
        switch self {
        case .granted: ("granted", nil, nil)
        case .revokedBeforeGrant: ("revokedBeforeGrant", nil, nil)
        case .unfinished(.awaitingGrant): ("unfinished", "awaitingGrant", nil)
        case .unfinished(.decisionFailed(let detail)): ("unfinished", "decisionFailed", detail)
        case .unfinished(.invalidGrant(let detail)): ("unfinished", "invalidGrant", detail)
        }
    }

    /// Reads the state back from its ``columns``; an unknown reason reads as awaiting a grant.
    public init(column state: String, reason: String?, detail: String?) {
        switch (state, reason) {
        case ("granted", _): self = .granted
        case ("revokedBeforeGrant", _): self = .revokedBeforeGrant
        case (_, "decisionFailed"): self = .unfinished(.decisionFailed(detail ?? ""))
        case (_, "invalidGrant"): self = .unfinished(.invalidGrant(detail ?? ""))
        default: self = .unfinished(.awaitingGrant)
        }
    }
}
