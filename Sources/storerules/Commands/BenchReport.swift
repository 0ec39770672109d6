/// What `storerules bench --json` prints: one object holding the decision, signed-data and
/// service figures and the ledger's beside them.
struct BenchReport: Encodable {
    /// The decision, signed-data and service figures.
    let figures: BenchCommand.Figures
    /// The ledger's figures.
    let ledger: LedgerBenchFigures

    /// Encodes both sets of figures into one object.
    func encode(to encoder: any Encoder) throws {
        try figures.encode(to: encoder)
        try ledger.encode(to: encoder)
    }
}
