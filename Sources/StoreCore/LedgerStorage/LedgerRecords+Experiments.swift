import Foundation

extension LedgerRecords {
    /// The columns of an exposure.
    public static let exposureColumns = "customer_id, experiment, phase, variant, exposed_date, policy_version, hook, placement"

    /// The columns of a phase record.
    public static let experimentPhaseColumns = "experiment, phase, variants, traffic, first_recorded_date"

    /// An exposure, from its row.
    public static func exposure(from row: some LedgerRecordRow) throws -> ExperimentExposure {
        ExperimentExposure(
            customerID: try row.text("customer_id"), experiment: try row.text("experiment"), phase: try row.text("phase"),
            variant: try row.text("variant"), exposedDate: Date(millisecondsSince1970: try row.integer("exposed_date")),
            policyVersion: try row.text("policy_version"), hook: try row.text("hook"), placement: try row.optionalText("placement"))
    }

    /// A phase record, from its row.
    public static func experimentPhase(from row: some LedgerRecordRow) throws -> ExperimentPhaseRecord {
        let variants = try row.text("variants")
        guard let decoded = try? JSONDecoder().decode([ExperimentVariantWeight].self, from: Data(variants.utf8)) else {
            throw LedgerStorageFailure(message: "variants is not a JSON array of names and weights: \(variants.prefix(80))", isTransient: false)
        }
        return ExperimentPhaseRecord(
            experiment: try row.text("experiment"), phase: try row.text("phase"), variants: decoded,
            traffic: Int(try row.integer("traffic")), firstRecordedDate: Date(millisecondsSince1970: try row.integer("first_recorded_date")))
    }

    /// A phase's variants as the `variants` column keeps them: a JSON array of
    /// `{"name", "weight"}` objects, sorted by name.
    public static func variantsJSON(_ variants: [ExperimentVariantWeight]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let sorted = variants.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return (try? encoder.encode(sorted)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// Whether `first` comes before `second` in the order exposures are read in: by exposure
    /// time, then experiment and phase byte by byte.
    static func exposureOrder(_ first: ExperimentExposure, _ second: ExperimentExposure) -> Bool {
        if first.exposedDate != second.exposedDate { return first.exposedDate < second.exposedDate }
        if first.experiment != second.experiment { return first.experiment.utf8.lexicographicallyPrecedes(second.experiment.utf8) }
        return first.phase.utf8.lexicographicallyPrecedes(second.phase.utf8)
    }
}
