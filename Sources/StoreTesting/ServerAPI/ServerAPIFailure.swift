import AppStoreServerAPI

/// A request the local store's App Store Server API refuses, as Apple would: the HTTP status,
/// Apple's error code and a message naming what was wrong.
struct ServerAPIFailure: Error {
    let status: Int
    let code: APIErrorCode.Known
    let message: String

    init(_ status: Int, _ code: APIErrorCode.Known, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ code: APIErrorCode.Known, _ message: String) -> ServerAPIFailure {
        ServerAPIFailure(400, code, message)
    }

    static func notFound(_ code: APIErrorCode.Known, _ message: String) -> ServerAPIFailure {
        ServerAPIFailure(404, code, message)
    }
}
