/// Where and how an ``HTTPServer`` listens.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`), or
    /// `localhost` for 127.0.0.1.
    public var host: String
    /// The port; 0 picks a free one (``HTTPServer/port`` says which).
    public var port: UInt16
    /// The threads answering requests.
    public var threads: Int
    /// The most connections open at once; more are refused until one closes.
    public var connectionLimit: Int
    /// How long a connection may stay silent, in seconds, before it is closed: a client that
    /// stops sending halfway through a request holds nothing for longer.
    public var idleTimeoutSeconds: Int
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
    }

    /// Describes a listener; by default loopback on port 8080 with 4 threads, 256 connections
    /// and a 15-second idle timeout.
    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, connectionLimit: Int = 256,
                idleTimeoutSeconds: Int = 15, tls: TLSCredentials? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionLimit = connectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
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
