import AppleLibraryCrossCheck
import Foundation

extension ScriptedMonth {
    /// What Apple's library printed for one payload: `ok` with the decoded payload, or the
    /// library's `VerificationStatus` name.
    struct Verdict {
        let ok: Bool
        let status: String?
        let decoded: [String: Any]
    }

    /// Verifies each request with Apple's library (see `AppleLibrary`), in one interpreter run.
    static func verifyWithAppleLibrary(_ requests: [AppleLibrary.Request]) throws -> [Verdict] {
        try AppleLibrary.verify(requests).map { line in
            let object = try StoreCommandTests.object(line)
            return Verdict(ok: object["ok"] as? Bool == true, status: object["status"] as? String,
                           decoded: object["decoded"] as? [String: Any] ?? [:])
        }
    }
}
