import COpenSSL
import Foundation

/// Issues the X.509 certificates of a local App Store-style signing chain with OpenSSL.
///
/// The certificates satisfy OpenSSL's strict checks, which Apple's Python library turns on:
/// critical basic constraints and key usage on certificate authorities, subject key
/// identifiers on every certificate, and authority key identifiers below the root. Apple's
/// marker extensions are added non-critical, as Apple's Swift library requires.
package enum CertificateIssuer {
    /// What a certificate is for.
    package enum Kind {
        /// A self-signed trust anchor.
        case root
        /// A certificate authority below the root that issues leaves.
        case intermediate
        /// The end-entity certificate whose key signs payloads.
        case leaf
    }

    /// The signer of a certificate below the root.
    package struct Issuer {
        /// The issuer's certificate, whose subject becomes the new certificate's issuer.
        package let certificate: X509Certificate
        /// The issuer's private key, which signs the new certificate.
        package let key: ECKey

        /// An issuer signing with `key` under `certificate`.
        package init(certificate: X509Certificate, key: ECKey) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// Issues a certificate for `subjectKey`.
    ///
    /// - Parameters:
    ///   - kind: Root, intermediate or leaf, which decides the extensions.
    ///   - commonName: The subject's common name; the organization is `StoreRules`.
    ///   - subjectKey: The key the certificate certifies.
    ///   - issuer: The signer, or nil for a self-signed root.
    ///   - validity: The validity period, to whole seconds.
    ///   - markerExtensionOID: An extra non-critical extension with an ASN.1 `NULL` value, such
    ///     as Apple's marker for the certificate's role.
    package static func issue(
        _ kind: Kind,
        commonName: String,
        subjectKey: ECKey,
        issuer: Issuer?,
        validity: DateInterval,
        markerExtensionOID: String?
    ) throws(OpenSSLFailure) -> X509Certificate {
        guard let certificate = X509_new() else { throw OpenSSLFailure("allocating a certificate") }
        var owned = true
        defer { if owned { X509_free(certificate) } }

        guard X509_set_version(certificate, 2) == 1 else { throw OpenSSLFailure("setting the X.509 version") }
        try setRandomSerialNumber(certificate)
        try setValidity(certificate, validity)

        guard let subject = X509_NAME_new() else { throw OpenSSLFailure("allocating a name") }
        defer { X509_NAME_free(subject) }
        for (field, value) in [("O", "StoreRules"), ("CN", commonName)] {
            guard X509_NAME_add_entry_by_txt(subject, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw OpenSSLFailure("setting the subject's \(field)")
            }
        }
        let issuerName = issuer.map { X509_get_subject_name($0.certificate.handle.pointer) } ?? subject
        guard X509_set_subject_name(certificate, subject) == 1,
              X509_set_issuer_name(certificate, issuerName) == 1,
              X509_set_pubkey(certificate, subjectKey.pointer) == 1
        else { throw OpenSSLFailure("setting the names and public key") }

        var extensions: [(name: String, value: String)]
        switch kind {
        case .root:
            extensions = [
                ("basicConstraints", "critical,CA:TRUE"),
                ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
            ]
        case .intermediate:
            extensions = [
                ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
                ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
                ("authorityKeyIdentifier", "keyid:always"),
            ]
        case .leaf:
            extensions = [
                ("basicConstraints", "critical,CA:FALSE"),
                ("keyUsage", "critical,digitalSignature"),
                ("subjectKeyIdentifier", "hash"),
                ("authorityKeyIdentifier", "keyid:always"),
            ]
        }
        if let markerExtensionOID {
            extensions.append((markerExtensionOID, "ASN1:NULL"))
        }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.handle.pointer ?? certificate, certificate, nil, nil, 0)
        for (name, value) in extensions {
            guard let ext = X509V3_EXT_nconf(nil, &context, name, value) else {
                throw OpenSSLFailure("building the \(name) extension")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else { throw OpenSSLFailure("adding the \(name) extension") }
        }

        guard X509_sign(certificate, (issuer?.key ?? subjectKey).pointer, EVP_sha256()) > 0 else {
            throw OpenSSLFailure("signing the certificate")
        }
        owned = false
        return X509Certificate(taking: certificate)
    }

    /// Whether the public key of `issuer` verifies the signature on `certificate`.
    package static func isSigned(_ certificate: X509Certificate, by issuer: X509Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.handle.pointer) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let signed = X509_verify(certificate.handle.pointer, key) == 1
        OpenSSLErrorQueue.clear()
        return signed
    }

    /// Sets a random positive 127-bit serial number, as RFC 5280 recommends.
    private static func setRandomSerialNumber(_ certificate: OpaquePointer) throws(OpenSSLFailure) {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw OpenSSLFailure("drawing a serial number") }
        bytes[0] = (bytes[0] & 0x7F) | 0x40
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw OpenSSLFailure("building a serial number") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
            throw OpenSSLFailure("setting the serial number")
        }
    }

    private static func setValidity(_ certificate: OpaquePointer, _ validity: DateInterval) throws(OpenSSLFailure) {
        guard let start = ASN1_TIME_set(nil, time_t(validity.start.timeIntervalSince1970.rounded(.down))),
              let end = ASN1_TIME_set(nil, time_t(validity.end.timeIntervalSince1970.rounded(.down)))
        else { throw OpenSSLFailure("encoding the validity dates") }
        defer {
            ASN1_TIME_free(start)
            ASN1_TIME_free(end)
        }
        guard X509_set1_notBefore(certificate, start) == 1, X509_set1_notAfter(certificate, end) == 1 else {
            throw OpenSSLFailure("setting the validity period")
        }
    }
}
