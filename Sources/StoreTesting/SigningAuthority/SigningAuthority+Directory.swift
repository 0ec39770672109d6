import Foundation
import StoreCore

extension SigningAuthority {
    /// The files of an authority stored in a directory: three PEM certificates and their PEM
    /// private keys (PKCS #8, readable by the owner only).
    public enum StoredFile: String, Sendable, CaseIterable {
        /// The root certificate, the one to trust.
        case rootCertificate = "root-certificate.pem"
        /// The root's private key.
        case rootKey = "root-key.pem"
        /// The intermediate certificate.
        case intermediateCertificate = "intermediate-certificate.pem"
        /// The intermediate's private key.
        case intermediateKey = "intermediate-key.pem"
        /// The leaf certificate.
        case leafCertificate = "leaf-certificate.pem"
        /// The leaf's private key, which signs payloads.
        case leafKey = "leaf-key.pem"

        var isPrivateKey: Bool {
            switch self {
            case .rootKey, .intermediateKey, .leafKey: true
            case .rootCertificate, .intermediateCertificate, .leafCertificate: false
            }
        }
    }

    /// Loads the authority stored in `directory`, or generates one and stores it there when
    /// the directory is missing or holds none of its files, so repeated runs sign with the same
    /// chain.
    ///
    /// A directory holding only some of the files is an error, not a reason to overwrite them.
    public static func loadOrCreate(in directory: URL) throws(SigningAuthorityError) -> SigningAuthority {
        let present = StoredFile.allCases.filter { FileManager.default.fileExists(atPath: directory.appending(path: $0.rawValue).path) }
        if present.isEmpty {
            let authority = try generate()
            try authority.store(in: directory)
            return authority
        }
        return try load(from: directory)
    }

    /// Loads the authority stored in `directory`, checking that every file is readable, each
    /// key belongs to its certificate, and the certificates form a chain with Apple's marker
    /// extensions.
    public static func load(from directory: URL) throws(SigningAuthorityError) -> SigningAuthority {
        let missing = StoredFile.allCases.filter { !FileManager.default.fileExists(atPath: directory.appending(path: $0.rawValue).path) }
        guard missing.isEmpty else {
            throw .incompleteDirectory(path: directory.path, missing: missing.map(\.rawValue))
        }
        func path(_ file: StoredFile) -> String { directory.appending(path: file.rawValue).path }
        func text(_ file: StoredFile) throws(SigningAuthorityError) -> String {
            do {
                return try String(contentsOf: directory.appending(path: file.rawValue), encoding: .utf8)
            } catch {
                throw .unreadableFile(path: path(file), reason: error.localizedDescription)
            }
        }
        func certificate(_ file: StoredFile) throws(SigningAuthorityError) -> X509Certificate {
            let pem = try text(file)
            let certificates: [X509Certificate]
            do {
                certificates = try X509Certificate.certificates(pemRepresentation: pem)
            } catch {
                throw .corruptFile(path: path(file), reason: error.description)
            }
            guard certificates.count == 1 else {
                throw .corruptFile(path: path(file), reason: "holds \(certificates.count) certificates, not 1")
            }
            return certificates[0]
        }
        func key(_ file: StoredFile, of certificate: X509Certificate, in certificateFile: StoredFile) throws(SigningAuthorityError) -> ECKey {
            let pem = try text(file)
            let key: ECKey
            do {
                key = try ECKey(privateKeyPEM: pem)
            } catch {
                throw .corruptFile(path: path(file), reason: error.description)
            }
            guard key.isPrivateKey(of: certificate) else {
                throw .keyDoesNotMatchCertificate(keyPath: path(file), certificatePath: path(certificateFile))
            }
            return key
        }

        let root = try certificate(.rootCertificate)
        let intermediate = try certificate(.intermediateCertificate)
        let leaf = try certificate(.leafCertificate)
        let authority = SigningAuthority(
            rootCertificate: root, rootKey: try key(.rootKey, of: root, in: .rootCertificate),
            intermediateCertificate: intermediate,
            intermediateKey: try key(.intermediateKey, of: intermediate, in: .intermediateCertificate),
            leafCertificate: leaf, leafKey: try key(.leafKey, of: leaf, in: .leafCertificate))
        try authority.checkChain()
        return authority
    }

    /// Writes the six files into `directory`, creating it if needed. Each file is written
    /// under a temporary name and then renamed, so none is ever half written; private keys are
    /// readable by the owner only.
    func store(in directory: URL) throws(SigningAuthorityError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: directory.path, reason: error.localizedDescription)
        }
        let contents: [StoredFile: String] = [
            .rootKey: rootKey.privateKeyPEM,
            .intermediateKey: intermediateKey.privateKeyPEM,
            .leafKey: leafKey.privateKeyPEM,
            .rootCertificate: rootCertificate.pemRepresentation,
            .intermediateCertificate: intermediateCertificate.pemRepresentation,
            .leafCertificate: leafCertificate.pemRepresentation,
        ]
        for file in StoredFile.allCases {
            let destination = directory.appending(path: file.rawValue)
            let temporary = directory.appending(path: ".\(file.rawValue).\(UUID().uuidString).tmp")
            let created = FileManager.default.createFile(
                atPath: temporary.path, contents: Data(contents[file]!.utf8),
                attributes: [.posixPermissions: file.isPrivateKey ? 0o600 : 0o644])
            guard created, rename(temporary.path, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw .unwritable(path: destination.path, reason: reason)
            }
        }
    }

    /// Checks that the root signed itself and the intermediate, the intermediate signed the
    /// leaf, and both carry Apple's marker extensions.
    private func checkChain() throws(SigningAuthorityError) {
        guard CertificateIssuer.isSigned(rootCertificate, by: rootCertificate) else {
            throw .brokenChain("the root certificate is not self-signed")
        }
        guard CertificateIssuer.isSigned(intermediateCertificate, by: rootCertificate) else {
            throw .brokenChain("the intermediate certificate was not issued by the root")
        }
        guard CertificateIssuer.isSigned(leafCertificate, by: intermediateCertificate) else {
            throw .brokenChain("the leaf certificate was not issued by the intermediate")
        }
        for (role, certificate) in [(CertificateRole.leaf, leafCertificate), (.intermediate, intermediateCertificate)] {
            guard certificate.hasExtension(oid: role.markerExtensionOID) else {
                throw .brokenChain("the \(role.rawValue) certificate lacks the marker extension \(role.markerExtensionOID)")
            }
        }
    }
}
