/// Writes metrics in Prometheus' text exposition format 0.0.4: a `# HELP` and a `# TYPE` line
/// per family, then one sample per line, label values escaped.
struct PrometheusText {
    /// The exposition's content type.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// Starts a metric family.
    mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// A counter family: a sample for each set of label values (in `labels`' order), sorted.
    mutating func counter(_ name: String, help: String, labels: [String], _ counts: [[String]: UInt64]) {
        family(name, type: "counter", help: help)
        for (values, count) in counts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            sample(name, Array(zip(labels, values)), Double(count))
        }
    }

    /// One sample.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// A value as the format spells it: integers without a fraction, `+Inf`, `NaN`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value with `\`, `"` and line feeds escaped.
    static func escapedLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Help text with `\` and line feeds escaped.
    static func escapedHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
