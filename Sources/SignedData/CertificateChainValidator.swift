import COpenSSL
import Foundation

/// Validates an App Store certificate chain with OpenSSL, as Apple's library does: the leaf
/// and intermediate from the JWS header must lead to one of the configured trusted roots (the
/// root in the header is never read), every certificate must be valid at the given date under
/// OpenSSL's strict X.509 checks, and the leaf and intermediate must carry Apple's marker
/// extensions.
struct CertificateChainValidator: Sendable {
    /// The outcome of a successful validation.
    struct ValidatedChain: Sendable {
        /// The leaf's public key, which verifies the payload's signature.
        let leafKey: ECKey
        /// The dates at which every certificate of the path is valid, so at which the same
        /// validation would succeed again.
        let validity: Range<Date>
    }

    /// The anchors a chain must end in.
    let trustedRoots: [X509Certificate]

    /// Validates `leaf` ← `intermediate` ← a trusted root at `date`.
    func validate(leaf: X509Certificate, intermediate: X509Certificate, at date: Date) throws(VerificationError) -> ValidatedChain {
        guard let store = X509_STORE_new(), let untrusted = OPENSSL_sk_new_null(), let context = X509_STORE_CTX_new() else {
            fatalError("OpenSSL could not allocate a certificate store")
        }
        defer {
            X509_STORE_CTX_free(context)
            OPENSSL_sk_free(untrusted)
            X509_STORE_free(store)
            OpenSSLErrorQueue.clear()
        }
        for root in trustedRoots {
            X509_STORE_add_cert(store, root.handle.pointer)
        }
        OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.handle.pointer))
        guard X509_STORE_CTX_init(context, store, leaf.handle.pointer, untrusted) == 1 else {
            throw .untrustedChain(OpenSSLErrorQueue.drain(fallback: "OpenSSL could not start validating the chain"))
        }
        X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_X509_STRICT))
        X509_STORE_CTX_set_time(context, 0, time_t(date.timeIntervalSince1970.rounded(.down)))

        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            let failing = X509_STORE_CTX_get_current_cert(context).map(X509Certificate.subject(of:)) ?? "unknown"
            switch code {
            case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
                throw .certificateNotValidAtSignedDate(subject: failing, date: date)
            default:
                throw .untrustedChain("\(reason) (at '\(failing)')")
            }
        }

        guard let path = X509_STORE_CTX_get0_chain(context) else {
            throw .untrustedChain("OpenSSL returned no verified path")
        }
        let certificates = (0..<OPENSSL_sk_num(path)).compactMap { OPENSSL_sk_value(path, $0).map(OpaquePointer.init) }
        guard certificates.count == 3 else {
            throw .untrustedChain("the verified path has \(certificates.count) certificates, not leaf, intermediate and root")
        }
        for (role, certificate) in zip([CertificateRole.leaf, .intermediate], certificates) {
            guard X509Certificate.hasExtension(oid: role.markerExtensionOID, in: certificate) else {
                throw .missingMarkerExtension(role)
            }
        }

        let leafKey: ECKey
        do {
            leafKey = try ECKey(publicKeyOf: leaf)
        } catch {
            throw .unsupportedLeafKey(error.description)
        }
        guard leafKey.isP256 else { throw .unsupportedLeafKey(leafKey.curveName ?? "not an elliptic-curve key") }

        let periods = certificates.map(X509Certificate.validity(of:))
        let start = periods.map(\.lowerBound).max()!
        let validity = start..<max(start, periods.map(\.upperBound).min()!)
        return ValidatedChain(leafKey: leafKey, validity: validity)
    }
}
