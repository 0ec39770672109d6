/// How an experiment differs between two policy versions, as `storerules diff` names it.
public struct ExperimentChange: Sendable, Equatable, Encodable {
    /// What happened to the experiment.
    public enum Kind: String, Sendable, Encodable {
        /// Only the new version declares it.
        case added
        /// Only the old version declares it.
        case removed
        /// Both declare it, differently.
        case changed
    }

    /// The experiment's name.
    public var name: String
    /// What happened to it.
    public var kind: Kind
    /// Its phase in the old version, when declared there.
    public var oldPhase: String?
    /// Its phase in the new version, when declared there.
    public var newPhase: String?
    /// What differs, one short phrase each: variants and weights, salt, traffic, audience, window.
    public var details: [String]

    /// Whether the new version starts a new phase, with a new assignment and separate results.
    public var startsNewPhase: Bool { newPhase != nil && oldPhase != newPhase }

    private enum CodingKeys: String, CodingKey {
        case name, kind, oldPhase = "old_phase", newPhase = "new_phase", startsNewPhase = "starts_new_phase", details
    }

    /// Writes the change as `{"name", "kind", "old_phase", "new_phase", "starts_new_phase", "details"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(oldPhase, forKey: .oldPhase)
        try container.encode(newPhase, forKey: .newPhase)
        try container.encode(startsNewPhase, forKey: .startsNewPhase)
        try container.encode(details, forKey: .details)
    }

    /// The experiments added, removed or changed from `old` to `new`, by name.
    public static func between(_ old: [String: ExperimentDeclaration], _ new: [String: ExperimentDeclaration]) -> [ExperimentChange] {
        Set(old.keys).union(new.keys).sorted().compactMap { name in
            switch (old[name], new[name]) {
            case (nil, let added?):
                return ExperimentChange(name: name, kind: .added, oldPhase: nil, newPhase: added.phase, details: [variantsText(added)])
            case (let removed?, nil):
                return ExperimentChange(name: name, kind: .removed, oldPhase: removed.phase, newPhase: nil, details: [])
            case (let before?, let after?) where before != after:
                return ExperimentChange(name: name, kind: .changed, oldPhase: before.phase, newPhase: after.phase,
                                        details: differences(before, after))
            default:
                return nil
            }
        }
    }

    private static func variantsText(_ declaration: ExperimentDeclaration) -> String {
        "variants " + declaration.variants.map { "\($0.name) \($0.weight)" }.joined(separator: ", ")
    }

    private static func differences(_ before: ExperimentDeclaration, _ after: ExperimentDeclaration) -> [String] {
        var details: [String] = []
        if before.variants != after.variants { details.append("\(variantsText(before)) → \(variantsText(after).dropFirst("variants ".count))") }
        if before.salt != after.salt { details.append("salt '\(before.salt)' → '\(after.salt)'") }
        if before.traffic != after.traffic { details.append("traffic \(before.traffic) % → \(after.traffic) %") }
        if before.hasAudience != after.hasAudience { details.append(after.hasAudience ? "audience added" : "audience removed") }
        if before.starts != after.starts || before.ends != after.ends { details.append("window changed") }
        return details
    }
}
