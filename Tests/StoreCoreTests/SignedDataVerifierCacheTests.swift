import Dispatch
import Foundation
import Synchronization
import Testing
@testable import StoreCore

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

    @Test func theCacheForgetsTheOldestChainWhenFull() throws {
        let chain = try CertificateChainValidator(trustedRoots: [Support.authority.rootCertificate]).validate(
            leaf: Support.authority.leafCertificate, intermediate: Support.authority.intermediateCertificate,
            at: Support.signedDate)
        var cache = CertificateChainCache(capacity: 2)
        for key in ["a", "b", "c"] {
            cache.insert(chain, for: key)
        }
        #expect(cache.chain(for: "a", at: Support.signedDate) == nil)
        #expect(cache.chain(for: "b", at: Support.signedDate) != nil)
        #expect(cache.chain(for: "c", at: Support.signedDate) != nil)
        #expect(cache.chain(for: "c", at: Support.authority.validity.end) == nil)
        #expect(cache.chain(for: "c", at: Support.authority.validity.start) != nil)
        #expect(chain.validity.lowerBound == Support.authority.validity.start)
        #expect(chain.validity.upperBound == Support.authority.validity.end)
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
