/// Where and how an ``HTTPServer`` listens.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`), or
    /// `localhost` for 127.0.0.1.
    public var host: String
    /// The port; 0 picks a free one (``HTTPServer/port`` says which).
    public var port: UInt16
    /// The threads answering requests.
    public var threads: Int
    /// The most connections open at once; one more is answered `503` with `Retry-After` at
    /// once and closed.
    public var connectionLimit: Int
    /// How long a connection may stay silent, in seconds, before it is closed: a client that
    /// stops sending halfway through a request holds nothing for longer.
    public var idleTimeoutSeconds: Int
    /// How long a request's line and headers may take to arrive, from the connection's
    /// opening or its previous response; past it the connection is closed. An idle keep-alive
    /// connection is closed after it too.
    public var headerTimeout: Duration
    /// The slowest average rate, in bytes per second, a body may arrive at once the header
    /// timeout has passed as a grace; a slower body's connection is closed.
    public var minimumBodyBytesPerSecond: Int
    /// The most connections one client address may hold open at once, when capped; for
    /// deployments without a proxy in front. A connection over either cap is answered `503`
    /// with `Retry-After` at once and closed.
    public var connectionsPerAddressLimit: Int?
    /// The largest body a request may carry, in bytes; a larger one is refused with `413` as its
    /// head arrives (or as its chunks do) and its connection closed.
    public var maximumBodyBytes: Int
    /// A certificate chain and its private key (PEM) to serve HTTPS with; plain HTTP without.
    public var tls: TLSCredentials?

    /// PEM text of a server certificate chain and its key.
    public struct TLSCredentials: Sendable {
        /// The certificate chain, leaf first.
        public var certificatePEM: String
        /// The private key.
        public var keyPEM: String

        /// Credentials from PEM text.
        public init(certificatePEM: String, keyPEM: String) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
        }

        /// Checks that the certificate and the key load and fit each other, as a server starting
        /// with them will.
        ///
        /// - Throws: ``HTTPServerError`` saying which part cannot be used.
        public func check() throws(HTTPServerError) {
            _ = try TLSContext(self)
        }
    }

    /// Describes a listener; by default loopback on port 8080 with 4 threads, 256 connections
    /// (no cap per address), a 15-second idle timeout, a 10-second header timeout and bodies
    /// of at least 1,024 bytes per second and at most 64 KiB (the service's router takes no more).
    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, connectionLimit: Int = 256,
                idleTimeoutSeconds: Int = 15, headerTimeout: Duration = .seconds(10), minimumBodyBytesPerSecond: Int = 1024,
                connectionsPerAddressLimit: Int? = nil, maximumBodyBytes: Int = 64 * 1024, tls: TLSCredentials? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionLimit = connectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headerTimeout = headerTimeout
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.connectionsPerAddressLimit = connectionsPerAddressLimit
        self.maximumBodyBytes = maximumBodyBytes
        self.tls = tls
    }

    /// Whether the address is a loopback one, which only this machine can reach.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
