import Foundation

/// The service's contract: the OpenAPI 3.1 document of every route `storerules serve` answers
/// (`Contract/openapi.json` in the repository, built into the library), which
/// `GET /openapi.json` serves as it is.
public enum ServiceContract {
    /// The document's bytes, as the repository holds them.
    public static let openAPIDocument = Data(PackageResources.openapi_json)

    /// The document as text.
    public static let openAPIText = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
