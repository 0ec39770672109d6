import Foundation
import StoreCore
import StoreTesting
import Testing
import TestPrerequisites

/// `storerules verify`: signed data made by a local signing authority, verified by the binary: its
/// inputs, the kind a payload's shape shows, the check a failure names with Apple's status, and
/// its usage. What each failure says is tested in process (VerificationFailureWordsTests).
@Suite struct VerifyCommandTests {
    static let bundleId = "com.example.backyardbirds"
    /// 2025-06-15T15:06:40Z.
    static let signedDate = Date(millisecondsSince1970: 1_750_000_000_000)
    static let authority = try! SigningAuthority.generate(validity: SigningAuthority.standardValidity(around: signedDate))
    static let otherAuthority = try! SigningAuthority.generate(
        name: "Another", validity: SigningAuthority.standardValidity(around: signedDate))

    static let transaction = JWSTransactionDecodedPayload(
        originalTransactionId: "2000000111111111", transactionId: "2000000111111112", bundleId: bundleId,
        productId: "pass.premium", subscriptionGroupIdentifier: "6F3A93AB", purchaseDate: signedDate,
        originalPurchaseDate: signedDate, expiresDate: signedDate.addingTimeInterval(30 * 86_400), quantity: 1,
        type: .autoRenewableSubscription, inAppOwnershipType: .purchased, signedDate: signedDate, environment: .sandbox,
        storefront: "USA", transactionReason: .purchase, currency: "USD", price: 4990)

    static let renewalInfo = JWSRenewalInfoDecodedPayload(
        originalTransactionId: "2000000111111111", autoRenewProductId: "pass.individual", productId: "pass.premium",
        autoRenewStatus: .on, isInBillingRetryPeriod: false, signedDate: signedDate, environment: .sandbox,
        renewalDate: signedDate.addingTimeInterval(30 * 86_400))

    static func notification(environment: AppStoreEnvironment = .sandbox, appAppleId: Int64 = 1234) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: .didChangeRenewalPref, subtype: .downgrade, notificationUUID: "5d6a1f3e-0000-4000-8000-000000000001",
            data: NotificationData(
                environment: environment, appAppleId: appAppleId, bundleId: bundleId,
                signedTransactionInfo: "nested.jws.unverified", status: .active),
            version: "2.0", signedDate: signedDate)
    }

    let directory: URL
    let rootPath: String

    init() throws {
        directory = try TestFolders.make("storerules-verify")
        rootPath = directory.appendingPathComponent("root.pem").path
        try Self.authority.rootCertificate.pemRepresentation.write(toFile: rootPath, atomically: true, encoding: .utf8)
    }

    /// Writes `text` to a file in the test directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func verify(_ arguments: [String], input: String? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run(["verify"] + arguments, input: input)
    }

    /// Checks a failure: status 1, nothing on stdout, one line on stderr naming `check`.
    func expectFailure(_ result: CommandRunner.Result, check: String, containing detail: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("storerules verify: \(check): "), "stderr: \(result.standardError)",
                sourceLocation: sourceLocation)
        #expect(result.standardError.contains(detail), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
    }

    // MARK: - Valid signed data

    @Test func aValidTransactionPrintsItsPayloadWithApplesFieldNamesAndMillisecondDates() throws {
        let jws = try Self.authority.sign(Self.transaction)
        let result = try verify([jws, "--root", rootPath, "--bundle-id", Self.bundleId, "--environment", "Sandbox"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        let decoded = try SignedPayloadJSON.makeDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(result.standardOutput.utf8))
        #expect(decoded == Self.transaction)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["purchaseDate"] as? Int64 == 1_750_000_000_000)
        #expect(object["type"] as? String == "Auto-Renewable Subscription")
        #expect(object["transactionId"] as? String == "2000000111111112")
        #expect(object["price"] as? Int == 4990)
    }

    @Test func aRenewalInfoInAFileIsRecognisedWithoutKind() throws {
        let path = try file("renewal.jws", try Self.authority.sign(Self.renewalInfo) + "\n")
        let result = try verify([path, "--root", rootPath, "--environment", "sandbox"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let decoded = try SignedPayloadJSON.makeDecoder().decode(JWSRenewalInfoDecodedPayload.self, from: Data(result.standardOutput.utf8))
        #expect(decoded == Self.renewalInfo)
    }

    @Test func aNotificationFromStandardInputIsVerified() throws {
        let jws = try Self.authority.sign(Self.notification())
        let result = try verify(["-", "--root", rootPath, "--bundle-id", Self.bundleId, "--kind", "notification"], input: jws + "\n")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let decoded = try SignedPayloadJSON.makeDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(result.standardOutput.utf8))
        #expect(decoded == Self.notification())
    }

    @Test func aProductionNotificationIsCheckedForTheAppAppleID() throws {
        let jws = try Self.authority.sign(Self.notification(environment: .production, appAppleId: 1234))
        let matching = try verify([jws, "--root", rootPath, "--environment", "Production", "--app-apple-id", "1234"])
        #expect(matching.status == 0, "stderr: \(matching.standardError)")
        let other = try verify([jws, "--root", rootPath, "--environment", "Production", "--app-apple-id", "999"])
        expectFailure(other, check: "app-apple-id", containing: "(INVALID_APP_IDENTIFIER)")
        let missing = try verify([jws, "--root", rootPath])
        expectFailure(missing, check: "configuration", containing: "pass --app-apple-id")
    }

    @Test func withoutBundleIDAndEnvironmentThePayloadsOwnAreAccepted() throws {
        let jws = try Self.authority.sign(Self.transaction)
        let result = try verify([jws, "--root", rootPath])
        #expect(result.status == 0, "stderr: \(result.standardError)")
    }

    @Test func aRootFileWithSeveralCertificatesTrustsEachOfThem() throws {
        let bundle = try file("roots.pem", Self.otherAuthority.rootCertificate.pemRepresentation + Self.authority.rootCertificate.pemRepresentation)
        let jws = try Self.authority.sign(Self.transaction)
        #expect(try verify([jws, "--root", bundle]).status == 0)
    }

    // MARK: - Failures

    @Test func aTamperedPayloadFailsTheSignatureCheck() throws {
        let jws = try Self.authority.sign(Self.transaction)
        var richer = Self.transaction
        richer.quantity = 100
        let forged = try Self.authority.sign(richer)
        let parts = jws.split(separator: ".")
        let tampered = [parts[0], forged.split(separator: ".")[1], parts[2]].joined(separator: ".")
        let result = try verify([tampered, "--root", rootPath, "--bundle-id", Self.bundleId])
        expectFailure(result, check: "signature", containing: "(VERIFICATION_FAILURE)")
    }

    @Test func aWrongBundleIDFails() throws {
        let jws = try Self.authority.sign(Self.transaction)
        let result = try verify([jws, "--root", rootPath, "--bundle-id", "com.example.other"])
        expectFailure(result, check: "bundle-id", containing: "(INVALID_APP_IDENTIFIER)")
    }

    @Test func aWrongEnvironmentFails() throws {
        let jws = try Self.authority.sign(Self.transaction)
        let result = try verify([jws, "--root", rootPath, "--environment", "Production", "--app-apple-id", "1234"])
        expectFailure(result, check: "environment", containing: "(INVALID_ENVIRONMENT)")
    }

    @Test func dataSignedUnderAnotherRootFailsTheChainCheck() throws {
        let jws = try Self.otherAuthority.sign(Self.transaction)
        let result = try verify([jws, "--root", rootPath])
        expectFailure(result, check: "chain", containing: "(VERIFICATION_FAILURE)")
    }

    @Test func garbageInAFileFailsTheFormatCheck() throws {
        let path = try file("garbage.txt", "this is not a JWS at all\n")
        expectFailure(try verify([path, "--root", rootPath]), check: "format", containing: "malformed JWS")
    }

    @Test func garbageWithTheShapeOfAJWSFailsTheFormatCheck() throws {
        expectFailure(try verify(["a.b.c", "--root", rootPath]), check: "format", containing: "malformed JWS")
    }

    @Test func aPayloadThatIsNotJSONFailsThePayloadCheck() throws {
        let jws = try Self.authority.sign(Self.transaction)
        let parts = jws.split(separator: ".")
        let notJSON = [String(parts[0]), "bm90IGpzb24", String(parts[2])].joined(separator: ".")
        expectFailure(try verify([notJSON, "--root", rootPath]), check: "payload", containing: "not a JSON object")
    }

    @Test func anArgumentThatIsNeitherAFileNorAJWSIsRefused() throws {
        expectFailure(try verify(["no-such-file.jws", "--root", rootPath]), check: "input",
                      containing: "'no-such-file.jws' is neither a file nor a compact JWS")
    }

    @Test func aDirectoryIsNotReadableInput() throws {
        expectFailure(try verify([directory.path, "--root", rootPath]), check: "input", containing: "cannot read \(directory.path)")
    }

    @Test func aPayloadOfNoKnownKindAsksForKind() throws {
        let jws = try Self.authority.sign(JWSRenewalInfoDecodedPayload(signedDate: Self.signedDate, environment: .sandbox))
        expectFailure(try verify([jws, "--root", rootPath]), check: "kind", containing: "pass --kind")
    }

    @Test("a transaction verified as a notification or as renewal info is refused as a transaction")
    func aKindThePayloadsShapeContradictsIsRefused() throws {
        let jws = try Self.authority.sign(Self.transaction)
        for kind in ["notification", "renewal"] {
            let result = try verify([jws, "--root", rootPath, "--kind", kind, "--bundle-id", Self.bundleId, "--environment", "Sandbox"])
            expectFailure(result, check: "kind", containing: "the payload is a transaction, not \(kind == "renewal" ? "renewal info" : "a notification")")
        }
    }

    @Test("renewal info verified as a transaction is refused as renewal info")
    func renewalInfoIsNotATransaction() throws {
        let jws = try Self.authority.sign(JWSRenewalInfoDecodedPayload(
            originalTransactionId: "1", autoRenewProductId: "pass", signedDate: Self.signedDate, environment: .sandbox))
        expectFailure(try verify([jws, "--root", rootPath, "--kind", "transaction"]), check: "kind",
                      containing: "the payload is renewal info, not a transaction")
    }

    @Test func anUnreadableOrEmptyRootFileFails() throws {
        let jws = try Self.authority.sign(Self.transaction)
        expectFailure(try verify([jws, "--root", directory.appendingPathComponent("missing.pem").path]), check: "root", containing: "cannot read")
        let empty = try file("empty.pem", "no certificate here\n")
        expectFailure(try verify([jws, "--root", empty]), check: "root", containing: empty)
    }

    @Test(arguments: [
        (["x"], "missing --root"),
        (["x", "--root", "r.pem", "--kind", "receipt"], "--kind must be transaction, renewal or notification"),
        (["x", "--root", "r.pem", "--environment", "Staging"], "--environment must be Sandbox, Production, Xcode or LocalTesting"),
        (["x", "--root", "r.pem", "--app-apple-id", "abc"], "--app-apple-id must be an integer"),
        (["--root", "r.pem"], "missing the JWS, FILE or - to verify"),
        (["x", "y", "--root", "r.pem"], "unexpected argument 'y'"),
    ])
    func usageMistakesExitWith64(arguments: [String], message: String) throws {
        let result = try verify(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
    }

    @Test func theCommandIsListedAndDocumented() throws {
        #expect(try CommandRunner.run(["--help"]).standardOutput.contains("verify"))
        let help = try verify(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Usage: storerules verify JWS|FILE|- --root PEM"))
    }
}
