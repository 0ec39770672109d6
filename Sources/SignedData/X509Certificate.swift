import COpenSSL
import Foundation

/// An X.509 certificate, parsed by OpenSSL.
///
/// Two certificates are equal when their DER encodings are.
public struct X509Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let derRepresentation: Data
    let handle: X509Handle

    /// Reads a DER-encoded certificate; trailing bytes are an error.
    public init(derRepresentation: Data) throws(CertificateError) {
        let parsed: OpaquePointer? = derRepresentation.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else {
            throw .invalidDER(OpenSSLErrorQueue.drain(fallback: "\(derRepresentation.count) bytes"))
        }
        self.init(taking: parsed)
    }

    /// Reads the first certificate of PEM text.
    public init(pemRepresentation: String) throws(CertificateError) {
        guard let first = try Self.certificates(pemRepresentation: pemRepresentation).first else {
            throw .noCertificateInPEM
        }
        self = first
    }

    /// Reads every certificate of PEM text, such as a bundle of trusted roots.
    public static func certificates(pemRepresentation: String) throws(CertificateError) -> [X509Certificate] {
        let bio = MemoryBIO(reading: Data(pemRepresentation.utf8))
        var certificates: [X509Certificate] = []
        OpenSSLErrorQueue.clear()
        // The callback supplies no passphrase, so OpenSSL never asks for one on the terminal.
        while let certificate = PEM_read_bio_X509(bio.pointer, nil, { _, _, _, _ in 0 }, nil) {
            certificates.append(X509Certificate(taking: certificate))
        }
        let endOfInput = ERR_peek_last_error()
        if ERR_GET_REASON(endOfInput) == PEM_R_NO_START_LINE {
            OpenSSLErrorQueue.clear()
        } else if endOfInput != 0 {
            throw .invalidPEM(OpenSSLErrorQueue.drain(fallback: "after \(certificates.count) certificates"))
        }
        guard !certificates.isEmpty else { throw .noCertificateInPEM }
        return certificates
    }

    /// Wraps a certificate OpenSSL allocated, taking ownership of it.
    init(taking certificate: OpaquePointer) {
        handle = X509Handle(certificate)
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &buffer)
        guard length > 0, let buffer else { fatalError("OpenSSL could not re-encode a parsed certificate") }
        derRepresentation = Data(bytes: buffer, count: Int(length))
        CRYPTO_free(buffer, #fileID, #line)
    }

    /// The certificate as PEM text.
    public var pemRepresentation: String {
        let bio = MemoryBIO()
        PEM_write_bio_X509(bio.pointer, handle.pointer)
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// The subject's distinguished name, in OpenSSL's one-line form (`O=StoreRules, CN=…`).
    public var subject: String { Self.subject(of: handle.pointer) }

    /// The start of the validity period, the first second at which OpenSSL accepts the
    /// certificate.
    public var notValidBefore: Date { Self.validity(of: handle.pointer).lowerBound }

    /// The end of the validity period; OpenSSL accepts the certificate until just before it.
    public var notValidAfter: Date { Self.validity(of: handle.pointer).upperBound }

    /// Whether the certificate carries an extension with the given dotted object identifier.
    public func hasExtension(oid: String) -> Bool { Self.hasExtension(oid: oid, in: handle.pointer) }

    /// The subject, for messages.
    public var description: String { subject }

    /// Equal when the DER encodings are equal.
    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derRepresentation)
    }

    /// The subject of an OpenSSL `X509`, in OpenSSL's one-line form.
    static func subject(of certificate: OpaquePointer) -> String {
        let bio = MemoryBIO()
        X509_NAME_print_ex(bio.pointer, X509_get_subject_name(certificate), 0, 0)
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// Whether an OpenSSL `X509` carries an extension with the given dotted object identifier.
    static func hasExtension(oid: String, in certificate: OpaquePointer) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(certificate, object, -1) >= 0
    }

    /// The dates at which OpenSSL accepts an `X509`: from `notBefore` up to, not including,
    /// `notAfter`, judged at whole seconds.
    static func validity(of certificate: OpaquePointer) -> Range<Date> {
        func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
            var parts = tm()
            guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
        }
        let start = date(X509_get0_notBefore(certificate)) ?? .distantFuture
        let end = date(X509_get0_notAfter(certificate)) ?? .distantPast
        return start <= end ? start..<end : start..<start
    }
}

/// Owns an OpenSSL `X509`.
///
/// Shared across threads without a lock: StoreRules never changes a certificate after
/// parsing it, and OpenSSL 3 guards the extension cache it fills lazily with its own lock.
final class X509Handle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }
}
