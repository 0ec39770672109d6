import StoreBench

/// What `storerules bench --json` prints: one object holding the decision, signed-data,
/// service, ledger and HTTP figures side by side.
struct BenchReport: Encodable {
    /// The decision figures.
    let decisions: DecisionBenchFigures
    /// The signed-data figures.
    let signedData: SignedDataBenchFigures
    /// The service load test's figures, or why it was skipped.
    let service: ServiceLoadTestSection
    /// The ledger's figures.
    let ledger: LedgerBenchFigures
    /// The HTTP service's figures under wrk.
    let http: HTTPBenchSection

    /// Encodes every set of figures into one object.
    func encode(to encoder: any Encoder) throws {
        try decisions.encode(to: encoder)
        try service.encode(to: encoder)
        try signedData.encode(to: encoder)
        try ledger.encode(to: encoder)
        try http.encode(to: encoder)
    }
}
