/// A request refused by a middleware or a route: the status, the error's kind and message for
/// the JSON body `{"error": {"kind", "message"}}`, headers to send with it, and a detail for the
/// log only (a host, a path, a driver's message), never for the body.
public struct HTTPError: Error, Sendable {
    /// The status.
    public var status: Int
    /// The error's kind, for programs.
    public var kind: String
    /// One line for people.
    public var message: String
    /// Headers the answer carries, such as `Allow` or `Retry-After`.
    public var headers: [String: String]
    /// What the log says of the failure, with the request id; nil when the message says all.
    public var logDetail: String?

    /// Describes a refusal.
    public init(_ status: Int, kind: String, message: String, headers: [String: String] = [:], logDetail: String? = nil) {
        self.status = status
        self.kind = kind
        self.message = message
        self.headers = headers
        self.logDetail = logDetail
    }

    /// The refusal that answers `error`. A failure of the ledger's storage is `503` with
    /// `Retry-After` on every route, whether or not it may pass, and its message stays in the log:
    /// it can name a host, a port, a file or what the database driver said. Every other `503` (a
    /// transaction that kept changing while it was decided) says when to try again too.
    public init(_ error: ServiceError) {
        if case .storageFailed(let failure) = error {
            self.init(503, kind: error.kind, message: "the ledger's storage is unavailable; try again later",
                      headers: ["Retry-After": "5"], logDetail: "the ledger's storage failed: \(failure.message)")
        } else {
            self.init(error.httpStatus, kind: error.kind, message: error.message,
                      headers: error.httpStatus == 503 ? ["Retry-After": "1"] : [:])
        }
    }
}
