import Foundation

/// The chains a ``SignedDataVerifier`` has validated, keyed by the exact leaf and
/// intermediate certificates of the JWS header, so that verifying more data signed by the same
/// chain costs one ECDSA verification.
///
/// An entry answers only for dates inside the validity of every certificate of its path; for
/// any other date the chain is validated again, which reports the precise failure. Only
/// successful validations are kept. When full, the oldest entry makes room.
struct CertificateChainCache {
    /// How many chains are kept.
    let capacity: Int
    private var entries: [String: CertificateChainValidator.ValidatedChain] = [:]
    private var insertionOrder: [String] = []

    /// Creates an empty cache that keeps at most `capacity` chains.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The key for a leaf and intermediate, as their base64 texts in `x5c`.
    static func key(leaf: String, intermediate: String) -> String {
        leaf + "." + intermediate
    }

    /// The validated chain for `key`, when the chain is valid at `date`.
    func chain(for key: String, at date: Date) -> CertificateChainValidator.ValidatedChain? {
        guard let chain = entries[key], chain.validity.contains(date) else { return nil }
        return chain
    }

    /// Remembers a validated chain.
    mutating func insert(_ chain: CertificateChainValidator.ValidatedChain, for key: String) {
        if entries.updateValue(chain, forKey: key) == nil {
            insertionOrder.append(key)
        }
        if insertionOrder.count > capacity {
            entries[insertionOrder.removeFirst()] = nil
        }
    }
}
