import Foundation
import StoreCore

/// One experiment as a policy declares it in `policy.experiments`: its variants with their
/// weights, the share of customers in it, an optional audience and an optional window.
///
/// A customer's variant depends only on the experiment's name, its phase and the customer's
/// id (``assignedVariant(customerID:)``), so every instance, and every reload that keeps the
/// phase, gives a customer the same one; experiments split independently of each other and of
/// `ctx.customer.seed`.
public struct ExperimentDeclaration: Sendable, Hashable, Codable {
    /// The experiment's name: its key in `policy.experiments`.
    public var name: String
    /// The variants with their integer weights, sorted by name; one is named `control`.
    public var variants: [ExperimentVariantWeight]
    /// The percentage of customers in the experiment, 0 to 100; the others read `nil`.
    public var traffic: Int
    /// Whether the declaration has an `audience` function, which a customer must pass.
    public var hasAudience: Bool
    /// When the experiment starts, if it says; before then every customer reads `nil`.
    public var starts: Date?
    /// When it ends (exclusive), if it says; from then on every customer reads `nil`.
    public var ends: Date?
    /// The salt of the assignment: the declaration's `salt`, or its name.
    public var salt: String
    /// The phase: a digest of the salt and the variants with their weights, so that changing
    /// either starts a new phase with a new assignment. Traffic, audience and window do not.
    public var phase: String

    /// The variant every other is compared with.
    public static let controlVariant = "control"

    /// Creates a declaration, computing its phase.
    public init(name: String, variants: [ExperimentVariantWeight], traffic: Int = 100, hasAudience: Bool = false,
                starts: Date? = nil, ends: Date? = nil, salt: String? = nil) {
        self.name = name
        self.variants = variants.sorted { $0.name < $1.name }
        self.traffic = traffic
        self.hasAudience = hasAudience
        self.starts = starts
        self.ends = ends
        self.salt = salt ?? name
        phase = Self.phase(salt: self.salt, variants: self.variants)
    }

    /// The phase of `variants` under `salt`: the first 12 hexadecimal digits of the SHA-256 of
    /// the salt and each `name=weight` on a line of its own, by name.
    public static func phase(salt: String, variants: [ExperimentVariantWeight]) -> String {
        let text = ([salt] + variants.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.weight)" }).joined(separator: "\n") + "\n"
        return String(SHA256Digest.hex(of: text).prefix(12))
    }

    /// The variant names, by name.
    public var variantNames: [String] { variants.map(\.name) }

    /// Whether `date` is inside the experiment's window.
    public func isRunning(at date: Date) -> Bool {
        if let starts, date < starts { return false }
        if let ends, date >= ends { return false }
        return true
    }

    /// Whether `customerID` falls in the experiment's traffic: a hash of the name and the id,
    /// apart from the variant's, so that raising the traffic keeps everyone already in.
    public func includesInTraffic(customerID: String) -> Bool {
        guard traffic < 100 else { return true }
        return Self.hash("\(name)/traffic/\(customerID)") % 10_000 < UInt64(traffic * 100)
    }

    /// The variant the weights give `customerID` in this phase, before traffic, audience and
    /// window are considered; nil for an anonymous customer (an empty id) or when no variant
    /// has weight.
    public func assignedVariant(customerID: String) -> String? {
        guard !customerID.isEmpty else { return nil }
        let total = variants.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        let point = Double(Self.hash("\(name)/\(phase)/\(customerID)") >> 11) * 0x1p-53 * Double(total)
        var reached = 0.0
        for variant in variants where variant.weight > 0 {
            reached += Double(variant.weight)
            if point < reached { return variant.name }
        }
        return variants.last { $0.weight > 0 }?.name
    }

    /// What the ledger keeps of this phase, first recorded at `date`.
    public func phaseRecord(at date: Date) -> ExperimentPhaseRecord {
        ExperimentPhaseRecord(experiment: name, phase: phase, variants: variants, traffic: traffic, firstRecordedDate: date)
    }

    /// FNV-1a of `text`'s UTF-8 bytes, finished with SplitMix64's mixer so that every bit
    /// depends on every byte.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
