import Foundation
@testable import SignedData
@testable import StoreTesting
import Testing

/// Every check of ``SignedDataVerifier``, its order, and each distinct failure.
@Suite struct SignedDataVerifierTests {
    typealias Support = SignedDataTestSupport

    var authority: SigningAuthority { Support.authority }
    var chainHeader: JWSDecodedHeader { JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(authority.certificateChain)) }

    /// The verification error `body` throws, or nil (recording an issue) for success or any
    /// other error.
    func verificationError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> VerificationError? {
        do {
            try body()
            Issue.record("verification succeeded", sourceLocation: sourceLocation)
        } catch let error as VerificationError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: Success

    @Test func verifiesAndDecodesEachKindOfSignedData() throws {
        let verifier = try Support.verifier()
        let transaction = Support.transaction()
        #expect(try verifier.verifyAndDecodeTransaction(authority.sign(transaction)) == transaction)
        let renewalInfo = Support.renewalInfo()
        #expect(try verifier.verifyAndDecodeRenewalInfo(authority.sign(renewalInfo)) == renewalInfo)
        let notification = Support.notification()
        #expect(try verifier.verifyAndDecodeNotification(authority.sign(notification)) == notification)
    }

    @Test func verifiesNotificationsWhoseAppComesFromSummaryTokenOrAppData() throws {
        let verifier = try Support.verifier()
        let summary = ResponseBodyV2DecodedPayload(
            notificationType: .renewalExtension, subtype: .summary, signedDate: Support.signedDate,
            summary: NotificationSummary(environment: .sandbox, appAppleId: Support.appAppleId, bundleId: Support.bundleId))
        #expect(try verifier.verifyAndDecodeNotification(authority.sign(summary)) == summary)

        let token = ResponseBodyV2DecodedPayload(
            notificationType: .externalPurchaseToken, subtype: .unreported, signedDate: Support.signedDate,
            externalPurchaseToken: ExternalPurchaseToken(
                externalPurchaseId: "SANDBOX_b2158121", appAppleId: Support.appAppleId, bundleId: Support.bundleId))
        #expect(try verifier.verifyAndDecodeNotification(authority.sign(token)) == token)

        let appData = ResponseBodyV2DecodedPayload(
            notificationType: .test, signedDate: Support.signedDate,
            appData: NotificationAppData(appAppleId: Support.appAppleId, bundleId: Support.bundleId, environment: .sandbox))
        #expect(try verifier.verifyAndDecodeNotification(authority.sign(appData)) == appData)
    }

    @Test func neverReadsTheRootInTheHeader() throws {
        var header = chainHeader
        header.x5c![2] = "bm90IGEgY2VydGlmaWNhdGU="
        let jws = try Support.sign(Support.transaction(), header: header)
        #expect(try Support.verifier().verifyAndDecodeTransaction(jws).transactionId == "2000000111111111")
    }

    @Test func acceptsAChainAtAnySignedDateWithinItsValidity() throws {
        let verifier = try Support.verifier()
        for date in [authority.validity.start, authority.validity.end.addingTimeInterval(-1)] {
            let transaction = Support.transaction(signedDate: date)
            #expect(try verifier.verifyAndDecodeTransaction(authority.sign(transaction)).signedDate == transaction.signedDate)
        }
    }

    // MARK: Step 1: format

    @Test func rejectsTextThatIsNotACompactJWS() throws {
        let verifier = try Support.verifier()
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction("a.b.c.d") } == .malformedJWS(.wrongPartCount(4)))
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction("") } == .malformedJWS(.wrongPartCount(1)))
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction("a.b.c") } == .malformedJWS(.invalidBase64URL(.header)))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction("eyJhbGciOiJFUzI1NiJ9.e30=.AAAA")
        } == .malformedJWS(.invalidBase64URL(.payload)))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction("eyJhbGciOiJFUzI1NiJ9.e30.AA+A")
        } == .malformedJWS(.invalidBase64URL(.signature)))
    }

    @Test func rejectsAHeaderThatIsNotAJWSHeader() throws {
        let verifier = try Support.verifier()
        for header in ["not json", "[1, 2]", #"{"alg": 256}"#, #"{"alg": "ES256", "x5c": "one"}"#] {
            let jws = Support.assemble(header: header, payload: "{}")
            let error = verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) }
            guard case .malformedJWS(.invalidHeader)? = error else {
                Issue.record("expected an invalid header, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsAPayloadOfTheWrongShapeBeforeCheckingTheSignature() throws {
        let verifier = try Support.verifier()
        let jws = Support.assemble(header: #"{"alg":"none"}"#, payload: #"{"signedDate":"yesterday"}"#)
        let error = verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) }
        guard case .malformedPayload(let reason)? = error else {
            Issue.record("expected a malformed payload, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("signedDate"))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(Support.assemble(header: "{}", payload: "not json"))
        } == .malformedPayload("top level: The given data was not valid JSON."))
    }

    // MARK: Steps 2–4: header

    @Test func rejectsAHeaderWithoutACertificateChain() throws {
        let verifier = try Support.verifier()
        let transaction = Support.transaction()
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(try! Support.sign(transaction, header: JWSDecodedHeader(alg: "ES256")))
        } == .missingCertificateChain)
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(try! Support.sign(transaction, header: JWSDecodedHeader(alg: "ES256", x5c: [])))
        } == .missingCertificateChain)
        let misspelled = Support.assemble(
            header: #"{"alg":"ES256","x5cwrong":["\#(Support.x5c([authority.leafCertificate])[0])"]}"#,
            payload: #"{"bundleId":"\#(Support.bundleId)"}"#)
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(misspelled) } == .missingCertificateChain)
    }

    @Test func rejectsEveryAlgorithmButES256() throws {
        let verifier = try Support.verifier()
        for algorithm in ["none", "ES384", "HS256", "es256", "ES256 "] {
            var header = chainHeader
            header.alg = algorithm
            let jws = try Support.sign(Support.transaction(), header: header)
            #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) } == .unsupportedAlgorithm(algorithm))
        }
        var header = chainHeader
        header.alg = nil
        let jws = try Support.sign(Support.transaction(), header: header)
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) } == .unsupportedAlgorithm(nil))
    }

    @Test func checksTheChainIsPresentBeforeTheAlgorithmAndTheAlgorithmBeforeTheLength() throws {
        let verifier = try Support.verifier()
        let noChainAlgNone = try Support.sign(Support.transaction(), header: JWSDecodedHeader(alg: "none"))
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(noChainAlgNone) } == .missingCertificateChain)
        let shortChainAlgNone = try Support.sign(
            Support.transaction(), header: JWSDecodedHeader(alg: "none", x5c: Array(chainHeader.x5c!.prefix(2))))
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(shortChainAlgNone) } == .unsupportedAlgorithm("none"))
    }

    @Test func rejectsChainsThatAreNotThreeCertificatesLong() throws {
        let verifier = try Support.verifier()
        let x5c = chainHeader.x5c!
        for chain in [Array(x5c.prefix(1)), Array(x5c.prefix(2)), x5c + [x5c[2]]] {
            let jws = try Support.sign(Support.transaction(), header: JWSDecodedHeader(alg: "ES256", x5c: chain))
            #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) } == .invalidChainLength(chain.count))
        }
    }

    @Test func rejectsHeaderCertificatesThatCannotBeRead() throws {
        let verifier = try Support.verifier()
        let x5c = chainHeader.x5c!
        func verify(_ chain: [String]) throws {
            _ = try verifier.verifyAndDecodeTransaction(
                try! Support.sign(Support.transaction(), header: JWSDecodedHeader(alg: "ES256", x5c: chain)))
        }
        #expect(verificationError { try verify(["abc", x5c[1], x5c[2]]) } == .invalidCertificate(index: 0, reason: "not standard base64"))
        #expect(verificationError {
            try verify([x5c[0], x5c[1].replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "*", x5c[2]])
        } == .invalidCertificate(index: 1, reason: "not standard base64"))
        let error = verificationError { try verify(["YWJj", x5c[1], x5c[2]]) }
        guard case .invalidCertificate(index: 0, _)? = error else {
            Issue.record("expected an invalid leaf certificate, got \(String(describing: error))")
            return
        }
        #expect(error?.status == .invalidCertificate)
    }

    // MARK: Step 5: chain and validity

    @Test func rejectsAChainFromAnotherRoot() throws {
        let other = try SigningAuthority.generate(name: "Other")
        let jws = try other.sign(Support.transaction())
        let error = verificationError { _ = try Support.verifier().verifyAndDecodeTransaction(jws) }
        guard case .untrustedChain(let reason)? = error else {
            Issue.record("expected an untrusted chain, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("unable to get local issuer certificate"))
        #expect(error?.status == .verificationFailure)
    }

    @Test func rejectsAnUntrustedChainEvenWhenTheHeaderNamesTheTrustedRoot() throws {
        let other = try SigningAuthority.generate(name: "Other")
        let header = JWSDecodedHeader(
            alg: "ES256",
            x5c: Support.x5c([other.leafCertificate, other.intermediateCertificate, authority.rootCertificate]))
        let jws = try Support.sign(Support.transaction(), header: header, key: other.leafKey)
        let error = verificationError { _ = try Support.verifier().verifyAndDecodeTransaction(jws) }
        guard case .untrustedChain? = error else {
            Issue.record("expected an untrusted chain, got \(String(describing: error))")
            return
        }
    }

    @Test func rejectsALeafIssuedDirectlyByTheRoot() throws {
        let leafKey = try ECKey.generate(on: .p256)
        let leaf = try CertificateIssuer.issue(
            .leaf, commonName: "Shortcut Leaf", subjectKey: leafKey,
            issuer: .init(certificate: authority.rootCertificate, key: authority.rootKey),
            validity: authority.validity, markerExtensionOID: CertificateRole.leaf.markerExtensionOID)
        let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c([leaf, authority.rootCertificate, authority.rootCertificate]))
        let jws = try Support.sign(Support.transaction(), header: header, key: leafKey)
        let error = verificationError { _ = try Support.verifier().verifyAndDecodeTransaction(jws) }
        guard case .untrustedChain(let reason)? = error else {
            Issue.record("expected an untrusted chain, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("2 certificates"))
    }

    @Test func rejectsPayloadsSignedOutsideTheChainsValidity() throws {
        let verifier = try Support.verifier()
        let after = authority.validity.end.addingTimeInterval(1)
        let before = authority.validity.start.addingTimeInterval(-1)
        for date in [after, before] {
            let jws = try Support.sign(Support.transaction(signedDate: date), header: chainHeader)
            let error = verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) }
            guard case .certificateNotValidAtSignedDate(_, let at)? = error else {
                Issue.record("expected a validity failure, got \(String(describing: error))")
                continue
            }
            #expect(at.millisecondsSince1970 == date.millisecondsSince1970)
        }
    }

    @Test func judgesValidityAtNowForAPayloadWithoutSignedDate() throws {
        let past = DateInterval(start: Date(timeIntervalSince1970: 1_500_000_000), end: Date(timeIntervalSince1970: 1_600_000_000))
        let expired = try Support.chain(name: "Expired", validity: past)
        let verifier = try Support.verifier(roots: [expired.rootCertificate])
        var transaction = Support.transaction()
        transaction.signedDate = nil
        let jws = try Support.sign(
            transaction, header: JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(expired.certificateChain)), key: expired.leafKey)
        let error = verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) }
        guard case .certificateNotValidAtSignedDate? = error else {
            Issue.record("expected a validity failure, got \(String(describing: error))")
            return
        }
        transaction.signedDate = Date(timeIntervalSince1970: 1_550_000_000)
        let dated = try Support.sign(
            transaction, header: JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(expired.certificateChain)), key: expired.leafKey)
        #expect(try verifier.verifyAndDecodeTransaction(dated).signedDate == transaction.signedDate)
    }

    // MARK: Step 6: marker extensions and leaf key

    @Test func rejectsALeafWithoutAppleMarker() throws {
        let chain = try Support.chain(leafMarker: false)
        let verifier = try Support.verifier(roots: [chain.rootCertificate])
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(try! chain.sign(Support.transaction())) } == .missingMarkerExtension(.leaf))
    }

    @Test func rejectsAnIntermediateWithoutAppleMarker() throws {
        let chain = try Support.chain(intermediateMarker: false)
        let verifier = try Support.verifier(roots: [chain.rootCertificate])
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(try! chain.sign(Support.transaction()))
        } == .missingMarkerExtension(.intermediate))
    }

    @Test func rejectsALeafKeyThatIsNotP256() throws {
        let chain = try Support.chain(leafCurve: .p384)
        let verifier = try Support.verifier(roots: [chain.rootCertificate])
        let jws = try Support.sign(Support.transaction(), header: JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(chain.certificateChain)))
        #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(jws) } == .unsupportedLeafKey("secp384r1"))
    }

    // MARK: Step 7: signature

    @Test func rejectsATamperedPayload() throws {
        let jws = try authority.sign(Support.transaction())
        #expect(verificationError { _ = try Support.verifier().verifyAndDecodeTransaction(Support.tampered(jws)) } == .invalidSignature)
    }

    @Test func rejectsASignatureByAnotherKey() throws {
        let jws = try Support.sign(Support.transaction(), header: chainHeader, key: ECKey.generate(on: .p256))
        #expect(verificationError { _ = try Support.verifier().verifyAndDecodeTransaction(jws) } == .invalidSignature)
    }

    @Test func rejectsSignaturesNotInRawForm() throws {
        let verifier = try Support.verifier()
        let jws = try authority.sign(Support.transaction())
        var parts = jws.split(separator: ".").map(String.init)
        let raw = Base64URL.decode(Substring(parts[2]))!
        #expect(raw.count == 64)
        let derForm = try ES256Signature.der(fromRaw: raw)
        for signature in [derForm, raw.prefix(63), raw + Data([0]), Data()] {
            parts[2] = Base64URL.encode(signature)
            #expect(verificationError { _ = try verifier.verifyAndDecodeTransaction(parts.joined(separator: ".")) } == .invalidSignature)
        }
    }

    // MARK: Step 8: app and environment

    @Test func rejectsATransactionForAnotherApp() throws {
        let verifier = try Support.verifier()
        let jws = try authority.sign(Support.transaction(bundleId: "com.example.other"))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(jws)
        } == .invalidAppIdentifier(expected: Support.bundleId, found: "com.example.other"))
    }

    @Test func checksTheBundleIdentifierBeforeTheEnvironment() throws {
        let jws = try authority.sign(Support.transaction(bundleId: "com.example.other", environment: .production))
        #expect(verificationError {
            _ = try Support.verifier().verifyAndDecodeTransaction(jws)
        } == .invalidAppIdentifier(expected: Support.bundleId, found: "com.example.other"))
    }

    @Test func rejectsDataFromAnotherEnvironment() throws {
        let verifier = try Support.verifier()
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(try! authority.sign(Support.transaction(environment: .production)))
        } == .invalidEnvironment(expected: .sandbox, found: .production))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeRenewalInfo(try! authority.sign(Support.renewalInfo(environment: .xcode)))
        } == .invalidEnvironment(expected: .sandbox, found: .xcode))
        var transaction = Support.transaction()
        transaction.environment = nil
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(try! authority.sign(transaction))
        } == .invalidEnvironment(expected: .sandbox, found: nil))
    }

    @Test func doesNotCheckABundleIdentifierInRenewalInfo() throws {
        let renewal = Support.renewalInfo()
        #expect(try Support.verifier().verifyAndDecodeRenewalInfo(authority.sign(renewal)) == renewal)
    }

    @Test func rejectsNotificationsForAnotherApp() throws {
        let verifier = try Support.verifier()
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeNotification(try! authority.sign(Support.notification(bundleId: "com.example.other")))
        } == .invalidAppIdentifier(expected: Support.bundleId, found: "com.example.other"))
        let empty = ResponseBodyV2DecodedPayload(notificationType: .test, signedDate: Support.signedDate)
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeNotification(try! authority.sign(empty))
        } == .invalidAppIdentifier(expected: Support.bundleId, found: nil))
        let transactionAsNotification = try authority.sign(Support.notification())
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeTransaction(transactionAsNotification)
        } == .invalidAppIdentifier(expected: Support.bundleId, found: nil))
    }

    @Test func checksTheAppAppleIdOfNotificationsInProductionOnly() throws {
        let production = try Support.verifier(environment: .production)
        let otherApp = try authority.sign(Support.notification(appAppleId: 1235, environment: .production))
        #expect(verificationError {
            _ = try production.verifyAndDecodeNotification(otherApp)
        } == .invalidAppAppleId(expected: Support.appAppleId, found: 1235))
        let sandbox = try Support.verifier(environment: .sandbox)
        let sandboxNotification = Support.notification(appAppleId: 1235, environment: .sandbox)
        #expect(try sandbox.verifyAndDecodeNotification(authority.sign(sandboxNotification)) == sandboxNotification)
    }

    @Test func rejectsNotificationsFromAnotherEnvironment() throws {
        let verifier = try Support.verifier(environment: .production)
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeNotification(try! authority.sign(Support.notification(environment: .sandbox)))
        } == .invalidEnvironment(expected: .production, found: .sandbox))
        let sandboxToken = ResponseBodyV2DecodedPayload(
            notificationType: .externalPurchaseToken, signedDate: Support.signedDate,
            externalPurchaseToken: ExternalPurchaseToken(
                externalPurchaseId: "SANDBOX_1", appAppleId: Support.appAppleId, bundleId: Support.bundleId))
        #expect(verificationError {
            _ = try verifier.verifyAndDecodeNotification(try! authority.sign(sandboxToken))
        } == .invalidEnvironment(expected: .production, found: .sandbox))
    }

    // MARK: Configuration

    @Test func refusesConfigurationsApplesLibraryRefusesOrCannotServe() {
        let roots = [Support.authority.rootCertificate]
        #expect(throws: VerifierConfigurationError.missingAppAppleId) {
            try SignedDataVerifier(rootCertificates: roots, bundleId: Support.bundleId, environment: .production)
        }
        #expect(throws: VerifierConfigurationError.missingRootCertificates(.sandbox)) {
            try SignedDataVerifier(rootCertificates: [], bundleId: Support.bundleId, environment: .sandbox)
        }
        #expect(throws: VerifierConfigurationError.onlineChecksUnavailable) {
            try SignedDataVerifier(rootCertificates: roots, bundleId: Support.bundleId, environment: .sandbox, enableOnlineChecks: true)
        }
    }

    @Test func decodesXcodeDataWithoutSignatureChecksOnlyWhenNoRootIsConfigured() throws {
        let unsigned = Support.assemble(
            header: #"{"alg":"ES256","kid":"Apple_Xcode_Key","typ":"JWT"}"#,
            payload: #"{"bundleId":"\#(Support.bundleId)","environment":"Xcode","signedDate":1697679936049.7297}"#)
        let unchecked = try SignedDataVerifier(rootCertificates: [], bundleId: Support.bundleId, environment: .xcode)
        #expect(!unchecked.checksSignatures)
        #expect(try unchecked.verifyAndDecodeTransaction(unsigned).environment == .xcode)
        #expect(verificationError {
            _ = try unchecked.verifyAndDecodeTransaction(try! authority.sign(Support.transaction()))
        } == .invalidEnvironment(expected: .xcode, found: .sandbox))

        let checked = try Support.verifier(environment: .localTesting)
        #expect(checked.checksSignatures)
        #expect(verificationError { _ = try checked.verifyAndDecodeTransaction(unsigned) } == .missingCertificateChain)
        let local = try authority.sign(Support.transaction(environment: .localTesting))
        #expect(try checked.verifyAndDecodeTransaction(local).environment == .localTesting)
    }

    @Test func mapsEachFailureToApplesStatus() {
        #expect(VerificationError.malformedJWS(.wrongPartCount(4)).status == .verificationFailure)
        #expect(VerificationError.unsupportedAlgorithm("none").status == .verificationFailure)
        #expect(VerificationError.invalidChainLength(2).status == .invalidChainLength)
        #expect(VerificationError.invalidCertificate(index: 0, reason: "").status == .invalidCertificate)
        #expect(VerificationError.missingMarkerExtension(.leaf).status == .verificationFailure)
        #expect(VerificationError.invalidSignature.status == .verificationFailure)
        #expect(VerificationError.invalidAppAppleId(expected: 1, found: 2).status == .invalidAppIdentifier)
        #expect(VerificationError.invalidEnvironment(expected: .sandbox, found: nil).status == .invalidEnvironment)
        #expect(VerificationError.invalidSignature.description == "the signature does not verify with the leaf certificate's key")
    }
}
