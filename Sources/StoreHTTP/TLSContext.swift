import COpenSSL
import Foundation

/// A TLS server's certificate chain and key, loaded into OpenSSL once and shared by every
/// connection (TLS 1.2 and later).
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Loads `credentials`.
    ///
    /// - Throws: ``HTTPServerError`` saying which part cannot be used.
    init(_ credentials: HTTPServerConfiguration.TLSCredentials) throws(HTTPServerError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw HTTPServerError(description: "cannot serve HTTPS: OpenSSL could not make a TLS context")
        }
        self.context = context
        _ = storerules_ssl_ctx_require_tls12(context)
        let certificates = Self.certificates(in: credentials.certificatePEM)
        guard let leaf = certificates.first else {
            throw HTTPServerError(description: "cannot serve HTTPS: --tls-cert holds no PEM certificate")
        }
        guard SSL_CTX_use_certificate(context, leaf) == 1 else {
            certificates.forEach { X509_free($0) }
            throw HTTPServerError(description: "cannot serve HTTPS: the TLS certificate cannot be used")
        }
        X509_free(leaf)
        for intermediate in certificates.dropFirst() where storerules_ssl_ctx_add_chain_certificate(context, intermediate) != 1 {
            X509_free(intermediate)
        }
        let keyBIO = credentials.keyPEM.withCString { BIO_new_mem_buf($0, -1) }
        defer { BIO_free(keyBIO) }
        guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, nil, nil) else {
            throw HTTPServerError(description: "cannot serve HTTPS: --tls-key holds no PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw HTTPServerError(description: "cannot serve HTTPS: the TLS private key does not match the certificate")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    private static func certificates(in pem: String) -> [OpaquePointer] {
        let bio = pem.withCString { BIO_new_mem_buf($0, -1) }
        defer { BIO_free(bio) }
        var certificates: [OpaquePointer] = []
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
            certificates.append(certificate)
        }
        ERR_clear_error()
        return certificates
    }
}

/// A connection through TLS, on a non-blocking socket.
final class TLSStream: ByteStream {
    private let socket: Int32
    private let connection: OpaquePointer
    let clientAddress: String?
    let isEncrypted = true

    /// Wraps `socket` in a TLS session of `context`; ``handshake(deadline:)`` starts it.
    init?(socket: Int32, context: TLSContext) {
        guard let connection = SSL_new(context.context) else { return nil }
        self.socket = socket
        self.connection = connection
        clientAddress = ClientAddress.peer(of: socket)
        SSL_set_fd(connection, socket)
    }

    deinit {
        SSL_free(connection)
    }

    /// Completes the TLS handshake.
    func handshake(deadline: ContinuousClock.Instant) throws(StreamFailure) {
        while true {
            let result = SSL_accept(connection)
            if result == 1 { return }
            try wait(after: result, deadline: deadline)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(StreamFailure) -> Int {
        while true {
            let count = SSL_read(connection, buffer.baseAddress, Int32(clamping: buffer.count))
            if count > 0 { return Int(count) }
            if SSL_get_error(connection, count) == SSL_ERROR_ZERO_RETURN { return 0 }
            try wait(after: count, deadline: deadline)
        }
    }

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(StreamFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                SSL_write(connection, buffer.baseAddress! + offset, Int32(clamping: buffer.count - offset))
            }
            if written > 0 {
                offset += Int(written)
                continue
            }
            try wait(after: written, deadline: deadline)
        }
    }

    func finishWriting() {
        SSL_shutdown(connection)
        ERR_clear_error()
    }

    /// Waits for what OpenSSL needs after a call that returned `result`, or fails.
    private func wait(after result: Int32, deadline: ContinuousClock.Instant) throws(StreamFailure) {
        switch SSL_get_error(connection, result) {
        case SSL_ERROR_WANT_READ: try waitForSocket(socket, events: Int16(POLLIN), deadline: deadline)
        case SSL_ERROR_WANT_WRITE: try waitForSocket(socket, events: Int16(POLLOUT), deadline: deadline)
        default:
            ERR_clear_error()
            throw .broken
        }
    }
}
