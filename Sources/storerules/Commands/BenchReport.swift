/// What `storerules bench --json` prints: one object holding the decision, signed-data and
/// service figures, the ledger's and the HTTP service's beside them.
struct BenchReport: Encodable {
    /// The decision, signed-data and service figures.
    let figures: BenchCommand.Figures
    /// The ledger's figures.
    let ledger: LedgerBenchFigures
    /// The HTTP service's figures under wrk.
    let http: BenchCommand.HTTPSection

    /// Encodes every set of figures into one object.
    func encode(to encoder: any Encoder) throws {
        try figures.encode(to: encoder)
        try ledger.encode(to: encoder)
        try http.encode(to: encoder)
    }
}
