import Foundation

/// An answer of the App Store Server API as it travels: the status, the headers by lowercased
/// name, and the body.
public struct AppStoreServerAPIResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The headers, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Describes an answer; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The header `name`, in any case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
