import Dispatch
import Foundation
@testable import SignedData
@testable import StoreTesting
import Synchronization
import Testing

/// The verifier's cache of validated chains, and its use from many threads.
@Suite struct SignedDataVerifierCacheTests {
    typealias Support = SignedDataTestSupport

    @Test func verifyingMoreDataFromTheSameChainSkipsChainValidation() throws {
        let verifier = try Support.verifier()
        for price in Int64(1)...5 {
            _ = try verifier.verifyAndDecodeTransaction(Support.authority.sign(Support.transaction(price: price)))
        }
        _ = try verifier.verifyAndDecodeRenewalInfo(Support.authority.sign(Support.renewalInfo()))
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 1, chainCacheHits: 5, signatureVerifications: 6))
    }

    @Test func aCachedChainStillChecksEverySignature() throws {
        let verifier = try Support.verifier()
        let jws = try Support.authority.sign(Support.transaction())
        _ = try verifier.verifyAndDecodeTransaction(jws)
        #expect(throws: VerificationError.invalidSignature) { try verifier.verifyAndDecodeTransaction(Support.tampered(jws)) }
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 1, chainCacheHits: 1, signatureVerifications: 2))
    }

    @Test func aCachedChainIsValidatedAgainForADateOutsideItsValidity() throws {
        let verifier = try Support.verifier()
        _ = try verifier.verifyAndDecodeTransaction(Support.authority.sign(Support.transaction()))
        let late = Support.authority.validity.end.addingTimeInterval(60)
        let jws = try Support.sign(
            Support.transaction(signedDate: late),
            header: JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(Support.authority.certificateChain)))
        #expect(throws: VerificationError.self) { try verifier.verifyAndDecodeTransaction(jws) }
        #expect(verifier.statistics.chainValidations == 2)
        #expect(verifier.statistics.chainCacheHits == 0)
    }

    @Test func aCachedChainIsNotTrustedFromTheSecondItsCertificatesExpire() throws {
        let verifier = try Support.verifier()
        let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(Support.authority.certificateChain))
        let end = Support.authority.validity.end
        _ = try verifier.verifyAndDecodeTransaction(Support.sign(Support.transaction(signedDate: end.addingTimeInterval(-0.001)), header: header))
        let error = #expect(throws: VerificationError.self) {
            try verifier.verifyAndDecodeTransaction(Support.sign(Support.transaction(signedDate: end), header: header))
        }
        #expect(error == .certificateNotValidAtSignedDate(subject: "O=StoreRules, CN=StoreRules Local Root CA", date: end))
        #expect(verifier.statistics.chainValidations == 2)
        #expect(verifier.statistics.chainCacheHits == 0)
    }

    @Test func eachChainIsValidatedOnceAndFailuresAreNotRemembered() throws {
        let other = try SigningAuthority.generate(name: "Other")
        let untrusted = try SigningAuthority.generate(name: "Untrusted")
        let verifier = try Support.verifier(roots: [Support.authority.rootCertificate, other.rootCertificate])
        for _ in 0..<2 {
            _ = try verifier.verifyAndDecodeTransaction(Support.authority.sign(Support.transaction()))
            _ = try verifier.verifyAndDecodeTransaction(other.sign(Support.transaction()))
            #expect(throws: VerificationError.self) { try verifier.verifyAndDecodeTransaction(untrusted.sign(Support.transaction())) }
        }
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 4, chainCacheHits: 2, signatureVerifications: 4))
    }

    @Test func aPayloadSignedOutsideTheValidityFailsAfterACacheHitAsOnAColdVerifier() throws {
        let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(Support.authority.certificateChain))
        let validity = Support.authority.validity
        for date in [validity.start.addingTimeInterval(-1), validity.end, validity.end.addingTimeInterval(86_400)] {
            let outside = try Support.sign(Support.transaction(signedDate: date), header: header)
            let inside = try Support.authority.sign(Support.transaction())
            #expect(try JWSSegments(outside).header == JWSSegments(inside).header)

            let cold = try Support.verifier()
            let coldError = #expect(throws: VerificationError.self) { try cold.verifyAndDecodeTransaction(outside) }
            let warm = try Support.verifier()
            _ = try warm.verifyAndDecodeTransaction(inside)
            _ = try warm.verifyAndDecodeTransaction(inside)
            let warmError = #expect(throws: VerificationError.self) { try warm.verifyAndDecodeTransaction(outside) }
            #expect(coldError != nil)
            #expect(warmError == coldError)
            #expect(warmError == .certificateNotValidAtSignedDate(subject: "O=StoreRules, CN=StoreRules Local Root CA", date: date))
            #expect(warm.statistics == VerifierStatistics(chainValidations: 2, chainCacheHits: 1, signatureVerifications: 2))
            #expect(try warm.verifyAndDecodeTransaction(inside).signedDate == Support.signedDate)
            #expect(warm.statistics.chainCacheHits == 2)
        }
    }

    @Test func aChainSharingTheLeafOfACachedChainIsValidatedOnItsOwn() throws {
        let other = try SigningAuthority.generate(name: "Other")
        let verifier = try Support.verifier(roots: [Support.authority.rootCertificate, other.rootCertificate])
        _ = try verifier.verifyAndDecodeTransaction(Support.authority.sign(Support.transaction()))
        let chain = Support.authority.certificateChain

        let foreignIntermediate = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c([chain[0], other.intermediateCertificate, chain[2]]))
        let error = #expect(throws: VerificationError.self) {
            try verifier.verifyAndDecodeTransaction(Support.sign(Support.transaction(), header: foreignIntermediate))
        }
        guard case .untrustedChain? = error else {
            Issue.record("expected an untrusted chain, got \(String(describing: error))")
            return
        }
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 2, chainCacheHits: 0, signatureVerifications: 1))

        let foreignRoot = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c([chain[0], chain[1], other.rootCertificate]))
        let withKeyID = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(chain), kid: "local")
        for header in [foreignRoot, withKeyID] {
            _ = try verifier.verifyAndDecodeTransaction(Support.sign(Support.transaction(), header: header))
        }
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 4, chainCacheHits: 0, signatureVerifications: 3))
        _ = try verifier.verifyAndDecodeTransaction(Support.sign(Support.transaction(price: 1), header: withKeyID))
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 4, chainCacheHits: 1, signatureVerifications: 4))
    }

    @Test func aCachedHeaderStillReportsMalformedSegmentsAndPayloadsInOrder() throws {
        let verifier = try Support.verifier()
        let jws = try Support.authority.sign(Support.transaction())
        _ = try verifier.verifyAndDecodeTransaction(jws)
        let parts = jws.split(separator: ".")
        let badPayload = "\(parts[0]).e30=.\(parts[2])"
        let badSignature = "\(parts[0]).\(parts[1]).AA+A"
        let wrongShape = "\(parts[0]).\(Base64URL.encode(Data(#"{"price":"free"}"#.utf8))).\(parts[2])"
        let cold = try Support.verifier()
        for text in [badPayload, badSignature, wrongShape] {
            let coldError = #expect(throws: VerificationError.self) { try cold.verifyAndDecodeTransaction(text) }
            let warmError = #expect(throws: VerificationError.self) { try verifier.verifyAndDecodeTransaction(text) }
            #expect(warmError == coldError)
        }
        #expect(verifier.statistics == VerifierStatistics(chainValidations: 1, chainCacheHits: 0, signatureVerifications: 1))
    }

    @Test func theCacheForgetsTheOldestChainWhenFull() throws {
        let chain = try CertificateChainValidator(trustedRoots: [Support.authority.rootCertificate]).validate(
            leaf: Support.authority.leafCertificate, intermediate: Support.authority.intermediateCertificate,
            at: Support.signedDate)
        let entry = CertificateChainCache.Entry(header: JWSDecodedHeader(alg: "ES256"), chain: chain)
        var cache = CertificateChainCache(capacity: 2)
        let keys = ["a", "b", "c"].map { CertificateChainCache.Key(headerSegment: $0) }
        for key in keys {
            cache.insert(entry, for: key)
        }
        #expect(cache.entry(for: keys[0]) == nil)
        #expect(cache.entry(for: keys[1]) != nil)
        #expect(cache.entry(for: keys[2])?.header == JWSDecodedHeader(alg: "ES256"))
        #expect(chain.validity.lowerBound == Support.authority.validity.start)
        #expect(chain.validity.upperBound == Support.authority.validity.end)
        #expect(!chain.validity.contains(Support.authority.validity.end))
    }

    @Test func headerSegmentsThatDifferOnlyPastTheHashedPrefixAreDifferentKeys() throws {
        let prefix = String(repeating: "A", count: CertificateChainCache.Key.hashedPrefixLength + 40)
        let first = CertificateChainCache.Key(headerSegment: Substring(prefix + "B"))
        let second = CertificateChainCache.Key(headerSegment: Substring(prefix + "C"))
        #expect(first.hashValue == second.hashValue)
        #expect(first != second)
        #expect(first == CertificateChainCache.Key(headerSegment: Substring(prefix + "B")))

        let chain = try CertificateChainValidator(trustedRoots: [Support.authority.rootCertificate]).validate(
            leaf: Support.authority.leafCertificate, intermediate: Support.authority.intermediateCertificate,
            at: Support.signedDate)
        var cache = CertificateChainCache(capacity: 4)
        cache.insert(CertificateChainCache.Entry(header: JWSDecodedHeader(kid: "B"), chain: chain), for: first)
        #expect(cache.entry(for: second) == nil)
        cache.insert(CertificateChainCache.Entry(header: JWSDecodedHeader(kid: "C"), chain: chain), for: second)
        #expect(cache.entry(for: first)?.header.kid == "B")
        #expect(cache.entry(for: second)?.header.kid == "C")
    }

    @Test func oneVerifierServesManyThreads() throws {
        let verifier = try Support.verifier()
        let transactions = (0..<40).map { Support.transaction(price: Int64($0)) }
        let signed = try transactions.map { try Support.authority.sign($0) }
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for (jws, transaction) in zip(signed, transactions) {
                if (try? verifier.verifyAndDecodeTransaction(jws)) != transaction {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        let statistics = verifier.statistics
        #expect(statistics.signatureVerifications == 320)
        #expect(statistics.chainValidations + statistics.chainCacheHits == 320)
        #expect((1...8).contains(statistics.chainValidations))
    }
}
