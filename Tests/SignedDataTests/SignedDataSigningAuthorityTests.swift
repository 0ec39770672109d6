import COpenSSL
import Foundation
@testable import SignedData
@testable import StoreTesting
import Testing

/// Creating, storing, reloading and using a local signing authority.
@Suite struct SignedDataSigningAuthorityTests {
    typealias Support = SignedDataTestSupport

    /// A fresh directory under the system's temporary folder, removed after `body`.
    func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "storerules-authority-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    func path(_ file: SigningAuthority.StoredFile, in directory: URL) -> String {
        directory.appending(path: file.rawValue).path
    }

    @Test func generatesARootAnIntermediateAndALeafWithAppleMarkers() throws {
        let authority = try SigningAuthority.generate(name: "Birds")
        #expect(authority.rootCertificate.subject == "O=StoreRules, CN=Birds Root CA")
        #expect(authority.intermediateCertificate.subject == "O=StoreRules, CN=Birds Intermediate CA")
        #expect(authority.leafCertificate.subject == "O=StoreRules, CN=Birds Store Signing")
        #expect(authority.intermediateCertificate.hasExtension(oid: "1.2.840.113635.100.6.2.1"))
        #expect(authority.leafCertificate.hasExtension(oid: "1.2.840.113635.100.6.11.1"))
        #expect(authority.leafKey.isP256)
        #expect(authority.certificateChain == [authority.leafCertificate, authority.intermediateCertificate, authority.rootCertificate])
        #expect(CertificateIssuer.isSigned(authority.leafCertificate, by: authority.intermediateCertificate))
        #expect(!CertificateIssuer.isSigned(authority.leafCertificate, by: authority.rootCertificate))
    }

    @Test func defaultValidityReachesTenYearsBackAndTwentyAhead() throws {
        let now = Date()
        let validity = SigningAuthority.standardValidity(around: now)
        let year: TimeInterval = 365.25 * 24 * 3600
        #expect(abs(validity.start.timeIntervalSince(now) + 10 * year) < 2)
        #expect(abs(validity.end.timeIntervalSince(now) - 20 * year) < 2)
        let authority = try SigningAuthority.generate(validity: validity)
        #expect(authority.validity.start == validity.start)
        #expect(abs(authority.validity.end.timeIntervalSince(validity.end)) < 1)
    }

    @Test func exportsTheRootAsPEMAndDER() throws {
        let root = Support.authority.rootCertificate
        #expect(root.pemRepresentation.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try X509Certificate(pemRepresentation: root.pemRepresentation).derRepresentation == root.derRepresentation)
        #expect(root.derRepresentation.first == 0x30)
    }

    @Test func createsTheAuthorityOnceAndReloadsItOnLaterRuns() throws {
        try withTemporaryDirectory { directory in
            let created = try SigningAuthority.loadOrCreate(in: directory.appending(path: "nested/signing"))
            let reloaded = try SigningAuthority.loadOrCreate(in: directory.appending(path: "nested/signing"))
            #expect(reloaded.certificateChain == created.certificateChain)
            let verifier = try SignedDataVerifier(
                rootCertificates: [created.rootCertificate], bundleId: Support.bundleId, environment: .sandbox)
            #expect(try verifier.verifyAndDecodeTransaction(reloaded.sign(Support.transaction())) == Support.transaction())
        }
    }

    @Test func storesCertificatesAndOwnerOnlyPrivateKeysAsPEM() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(names == SigningAuthority.StoredFile.allCases.map(\.rawValue).sorted())
            for file in SigningAuthority.StoredFile.allCases {
                let attributes = try FileManager.default.attributesOfItem(atPath: path(file, in: directory))
                let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
                let text = try String(contentsOfFile: path(file, in: directory), encoding: .utf8)
                if file.isPrivateKey {
                    #expect(permissions == 0o600)
                    #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----"))
                } else {
                    #expect(permissions == 0o644)
                    #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----"))
                }
            }
        }
    }

    @Test func refusesAnIncompleteDirectoryAndLeavesItAlone() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            try FileManager.default.removeItem(atPath: path(.leafKey, in: directory))
            let before = try Data(contentsOf: directory.appending(path: SigningAuthority.StoredFile.rootCertificate.rawValue))
            #expect(throws: SigningAuthorityError.incompleteDirectory(path: directory.path, missing: ["leaf-key.pem"])) {
                try SigningAuthority.loadOrCreate(in: directory)
            }
            #expect(try Data(contentsOf: directory.appending(path: SigningAuthority.StoredFile.rootCertificate.rawValue)) == before)
            #expect(!FileManager.default.fileExists(atPath: path(.leafKey, in: directory)))
        }
    }

    @Test func refusesToLoadAnEmptyDirectory() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(throws: SigningAuthorityError.incompleteDirectory(
                path: directory.path, missing: SigningAuthority.StoredFile.allCases.map(\.rawValue))) {
                try SigningAuthority.load(from: directory)
            }
        }
    }

    @Test func reportsACorruptCertificateOrKeyFile() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            try "garbage".write(toFile: path(.intermediateCertificate, in: directory), atomically: true, encoding: .utf8)
            #expect(throws: SigningAuthorityError.corruptFile(
                path: path(.intermediateCertificate, in: directory), reason: "no PEM CERTIFICATE block found")) {
                try SigningAuthority.loadOrCreate(in: directory)
            }
        }
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            try Support.authority.rootCertificate.pemRepresentation.write(
                toFile: path(.leafKey, in: directory), atomically: true, encoding: .utf8)
            do {
                _ = try SigningAuthority.load(from: directory)
                Issue.record("loaded a certificate as a private key")
            } catch let error as SigningAuthorityError {
                guard case .corruptFile(let file, _) = error else {
                    Issue.record("expected a corrupt key file, got \(error)")
                    return
                }
                #expect(file == path(.leafKey, in: directory))
            }
        }
    }

    @Test func reportsAnEncryptedKeyAsCorruptWithoutAskingForAPassphrase() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            let bio = MemoryBIO()
            let key = try ECKey.generate(on: .p256)
            let passphrase = Array("secret".utf8)
            let written = withExtendedLifetime(key) {
                PEM_write_bio_PrivateKey(bio.pointer, key.pointer, EVP_aes_256_cbc(), passphrase, Int32(passphrase.count), nil, nil)
            }
            #expect(written == 1)
            let encrypted = String(decoding: bio.contents, as: UTF8.self)
            #expect(encrypted.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
            try encrypted.write(toFile: path(.leafKey, in: directory), atomically: true, encoding: .utf8)
            do {
                _ = try SigningAuthority.load(from: directory)
                Issue.record("loaded an encrypted key without its passphrase")
            } catch let error as SigningAuthorityError {
                guard case .corruptFile(let file, _) = error else {
                    Issue.record("expected a corrupt key file, got \(error)")
                    return
                }
                #expect(file == path(.leafKey, in: directory))
            }
        }
    }

    @Test func reportsAKeyThatBelongsToAnotherCertificate() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            try FileManager.default.removeItem(atPath: path(.leafKey, in: directory))
            try FileManager.default.copyItem(atPath: path(.rootKey, in: directory), toPath: path(.leafKey, in: directory))
            #expect(throws: SigningAuthorityError.keyDoesNotMatchCertificate(
                keyPath: path(.leafKey, in: directory), certificatePath: path(.leafCertificate, in: directory))) {
                try SigningAuthority.load(from: directory)
            }
        }
    }

    @Test func reportsCertificatesThatDoNotFormAChain() throws {
        try withTemporaryDirectory { directory in
            _ = try SigningAuthority.loadOrCreate(in: directory)
            let other = try SigningAuthority.generate(name: "Other")
            try other.intermediateCertificate.pemRepresentation.write(
                toFile: path(.intermediateCertificate, in: directory), atomically: true, encoding: .utf8)
            try other.intermediateKey.privateKeyPEM.write(toFile: path(.intermediateKey, in: directory), atomically: true, encoding: .utf8)
            #expect(throws: SigningAuthorityError.brokenChain("the intermediate certificate was not issued by the root")) {
                try SigningAuthority.load(from: directory)
            }
        }
        try withTemporaryDirectory { directory in
            let unmarked = try Support.chain(leafMarker: false)
            try unmarked.store(in: directory)
            #expect(throws: SigningAuthorityError.brokenChain(
                "the leaf certificate lacks the marker extension 1.2.840.113635.100.6.11.1")) {
                try SigningAuthority.load(from: directory)
            }
        }
    }

    @Test func refusesToSignOutsideTheChainsValidity() throws {
        let authority = Support.authority
        for date in [authority.validity.end, authority.validity.start.addingTimeInterval(-0.001)] {
            #expect(throws: SigningAuthorityError.signedDateOutsideValidity(signedDate: date, validity: authority.validity)) {
                try authority.sign(Support.transaction(signedDate: date))
            }
        }
        #expect(throws: Never.self) { try authority.sign(Support.transaction(signedDate: authority.validity.start)) }
    }

    @Test func reportsADirectoryItCannotWrite() throws {
        try withTemporaryDirectory { directory in
            try Data("a file".utf8).write(to: directory)
            do {
                _ = try SigningAuthority.loadOrCreate(in: directory.appending(path: "signing"))
                Issue.record("wrote below a regular file")
            } catch let error as SigningAuthorityError {
                guard case .unwritable = error else {
                    Issue.record("expected an unwritable directory, got \(error)")
                    return
                }
            }
        }
    }
}
