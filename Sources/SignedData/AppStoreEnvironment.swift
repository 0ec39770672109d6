/// The App Store server environment that produced signed data (Apple's `Environment`).
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct AppStoreEnvironment: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `Sandbox`: The sandbox environment, where test accounts buy without being charged.
    public static let sandbox = Self(rawValue: "Sandbox")

    /// `Production`: The live App Store.
    public static let production = Self(rawValue: "Production")

    /// `Xcode`: StoreKit Testing in Xcode, which signs with a local, self-signed certificate.
    public static let xcode = Self(rawValue: "Xcode")

    /// `LocalTesting`: Data made for local tests, such as those of Apple's server library.
    public static let localTesting = Self(rawValue: "LocalTesting")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .sandbox,
        .production,
        .xcode,
        .localTesting,
    ]
}

extension AppStoreEnvironment {
    /// Whether data from this environment may be signed with one self-signed certificate
    /// instead of a chain to a trusted root: true for Xcode and LocalTesting only.
    public var signsWithOneSelfSignedCertificate: Bool { self == .xcode || self == .localTesting }
}
