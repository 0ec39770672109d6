import Foundation

/// The chains a ``SignedDataVerifier`` has validated, keyed by the exact header segment of the
/// JWS that carried them, so that verifying more data signed under the same header costs no
/// header decoding, no certificate parsing and no chain validation: one ECDSA verification.
///
/// A different header segment is a different key, even when its chain shares the leaf (or the
/// leaf and intermediate) of a cached one. An entry answers only for dates inside the validity
/// of every certificate of its path; for any other date the chain is validated again, which
/// reports the precise failure. Only successful validations are kept. When full, the oldest
/// entry makes room.
struct CertificateChainCache {
    /// A header segment, with its hash computed once, outside the verifier's lock.
    ///
    /// The hash covers the segment's length and its first ``hashedPrefixLength`` bytes, which in
    /// App Store headers hold the leaf certificate's serial number and so tell chains apart;
    /// equality compares the whole segment.
    struct Key: Hashable {
        /// How many bytes at the start of a header segment its hash covers.
        static let hashedPrefixLength = 256

        /// The base64url header segment, as transmitted.
        let headerSegment: Substring
        private let precomputedHash: Int

        /// The key of a header segment.
        init(headerSegment: Substring) {
            self.headerSegment = headerSegment
            var hasher = Hasher()
            var segment = headerSegment
            segment.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(Self.hashedPrefixLength))))
            }
            precomputedHash = hasher.finalize()
        }

        /// The same key holding a copy of the segment alone, not the whole JWS text around it.
        var detached: Key {
            Key(headerSegment: Substring(String(headerSegment)))
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.precomputedHash == rhs.precomputedHash && lhs.headerSegment == rhs.headerSegment
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(precomputedHash)
        }
    }

    /// A header decoded once, and the chain it carries as validated.
    struct Entry: Sendable {
        /// The decoded header: the same for every JWS whose header segment is the key.
        let header: JWSDecodedHeader
        /// The validated chain of the header's `x5c`.
        let chain: CertificateChainValidator.ValidatedChain
    }

    /// How many chains are kept.
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var insertionOrder: [Key] = []

    /// Creates an empty cache that keeps at most `capacity` chains.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The entry for a header segment, whatever the date: check its chain's validity before
    /// trusting the chain.
    func entry(for key: Key) -> Entry? {
        entries[key]
    }

    /// Remembers a header and its validated chain, replacing an older entry for the same key.
    mutating func insert(_ entry: Entry, for key: Key) {
        let key = key.detached
        if entries.updateValue(entry, forKey: key) == nil {
            insertionOrder.append(key)
        }
        if insertionOrder.count > capacity {
            entries[insertionOrder.removeFirst()] = nil
        }
    }
}
