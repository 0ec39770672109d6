import StoreService

/// How a request's body is framed, read from every `Content-Length` and `Transfer-Encoding`
/// header it sent, and refused whenever two parsers could read it two ways (the ground of
/// request smuggling).
///
/// Refused with `400`: a repeated `Content-Length` (even with one value), one that is not
/// decimal digits, `Content-Length` beside `Transfer-Encoding`, and a transfer coding listed
/// more than once or `chunked` not last and alone. Refused with `501`: any coding but
/// `chunked` (`gzip`, `deflate`, …), which StoreRules does not decode.
public struct RequestFraming: Sendable {
    /// The body's declared length, when one valid `Content-Length` frames it.
    public let contentLength: Int?
    /// Why the framing is refused, when it is; the handler writes the answer, and the
    /// connection is closed after it.
    public let refusal: HTTPError?

    /// The framing of a request that sent these header values, in order.
    public init(contentLengths: [String], transferEncodings: [String]) {
        switch Self.check(contentLengths: contentLengths, transferEncodings: transferEncodings) {
        case .success(let length):
            contentLength = length
            refusal = nil
        case .failure(let problem):
            contentLength = nil
            refusal = HTTPError(problem.status, kind: problem.status == 501 ? "not_implemented" : "bad_request", message: problem.message)
        }
    }

    private struct Problem: Error {
        let status: Int
        let message: String
    }

    private static func check(contentLengths: [String], transferEncodings: [String]) -> Result<Int?, Problem> {
        if contentLengths.count > 1 {
            return .failure(Problem(status: 400, message: "the request has \(contentLengths.count) Content-Length headers; one frames a body"))
        }
        if !contentLengths.isEmpty, !transferEncodings.isEmpty {
            return .failure(Problem(status: 400, message: "the request has both Content-Length and Transfer-Encoding; one frames a body"))
        }
        if let text = contentLengths.first {
            let digits = text.trimmingOWS
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let length = Int(digits)
            else {
                return .failure(Problem(status: 400, message: "Content-Length must be a decimal number of bytes, not '\(text)'"))
            }
            return .success(length)
        }
        guard !transferEncodings.isEmpty else { return .success(nil) }
        let codings = transferEncodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0).trimmingOWS.lowercased() }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return .failure(Problem(status: 501, message: "the transfer coding '\(unknown)' is not supported; send the body chunked or with Content-Length"))
        }
        guard codings.count == 1 else {
            return .failure(Problem(status: 400, message: "Transfer-Encoding lists chunked \(codings.count) times; once frames a body"))
        }
        return .success(nil)
    }
}

extension String {
    /// The text without HTTP's optional white space (spaces and tabs) at either end.
    fileprivate var trimmingOWS: String {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isOWS).reversed().drop(while: isOWS).reversed())
    }
}
