/// One-line summaries of JSON decoding errors, for StoreRules' error messages.
package enum DecodingFailure {
    /// Where decoding failed (the key path) and why.
    package static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type); \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key \(key.stringValue)"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return keys.isEmpty ? "top level" : keys.joined(separator: ".")
    }
}
