import Foundation

/// The JSON-lines transport over a ``Service``: one request object per line in, one response
/// object per line out.
///
/// A reply is `{"id": …, "result": …}` or `{"id": …, "error": {"kind", "message"}}`, the id
/// first (`null` for a line without a readable one) so a client can match replies without
/// parsing the rest. Keep one per thread: it holds its own coders.
public struct JSONLineProtocol {
    /// The service that answers the requests.
    public let service: Service
    private let decoder = JSONDecoder()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Creates the transport over `service`.
    public init(service: Service) {
        self.service = service
    }

    /// The reply to one request line. Never throws: a bad line, whatever its bytes, gets an
    /// error reply and the service goes on.
    public func reply(to line: some DataProtocol) -> String {
        let id: JSONLineRequestID?
        let outcome: Result<ServiceResponse, ServiceError>
        do {
            let request = try decoder.decode(RequestLine.self, from: Data(line))
            id = request.id
            do throws(ServiceError) {
                outcome = .success(try service.answer(try request.operation.get()))
            } catch {
                outcome = .failure(error)
            }
        } catch {
            id = nil
            outcome = .failure(.badRequest("the line is not a JSON object"))
        }
        let idText = id.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        switch outcome {
        case .success(let answer):
            do {
                return #"{"id":\#(idText),"result":\#(String(decoding: try encoder.encode(answer), as: UTF8.self))}"#
            } catch {
                return errorLine(idText, .unencodable("the answer could not be written as JSON: \(error)"))
            }
        case .failure(let error):
            return errorLine(idText, error)
        }
    }

    private func errorLine(_ idText: String, _ error: ServiceError) -> String {
        let body = (try? encoder.encode(error)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return #"{"id":\#(idText),"error":\#(body)}"#
    }
}
