import Foundation

/// The paging tokens of the local store's API: a history's `revision` is the position of the
/// last transaction answered, in the order of changes; a notification history's
/// `paginationToken` the last notification's sequence. Both are opaque to clients, as Apple's
/// are, and a malformed one is refused.
enum PageToken {
    /// A revision after the transaction `transactionID` changed at `changed`.
    static func revision(changed: Int64, transactionID: String) -> String {
        encode("r:\(changed):\(transactionID)")
    }

    /// The position a revision names.
    static func position(ofRevision revision: String) -> (changed: Int64, transactionID: String)? {
        guard let text = decode(revision), text.hasPrefix("r:") else { return nil }
        let parts = text.dropFirst(2).split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let changed = Int64(parts[0]), parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        return (changed, String(parts[1]))
    }

    /// A pagination token after the notification `sequence`.
    static func pagination(after sequence: Int) -> String {
        encode("n:\(sequence)")
    }

    /// The sequence a pagination token names.
    static func sequence(ofPagination token: String) -> Int? {
        guard let text = decode(token), text.hasPrefix("n:") else { return nil }
        return Int(text.dropFirst(2))
    }

    private static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decode(_ token: String) -> String? {
        guard token.utf8.count <= 512 else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
