/// The place of a certificate in an App Store signing chain below the root.
public enum CertificateRole: String, Sendable, Hashable, CaseIterable {
    /// The certificate whose key signs the payload (`x5c[0]`).
    case leaf
    /// The certificate authority that issued the leaf (`x5c[1]`).
    case intermediate

    /// The extension Apple puts in every certificate of this role, and that Apple's library
    /// requires: `1.2.840.113635.100.6.11.1` in the leaf ("Mac App Store and iTunes Store
    /// receipt signing"), `1.2.840.113635.100.6.2.1` in the intermediate ("Apple Worldwide
    /// Developer Relations"). Only its presence counts; its value is ASN.1 `NULL`.
    public var markerExtensionOID: String {
        switch self {
        case .leaf: "1.2.840.113635.100.6.11.1"
        case .intermediate: "1.2.840.113635.100.6.2.1"
        }
    }
}
