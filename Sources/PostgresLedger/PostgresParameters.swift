import CLibPQ
import Foundation

/// A statement's parameters in the form `PQexecParams` takes: a type OID and a C string in
/// PostgreSQL's text format for each, `NULL` as a null pointer.
///
/// Integers are typed `int8` and booleans `bool`; text and `NULL` are left untyped (OID 0) so
/// the server gives them the type their place in the statement needs.
struct PostgresParameters: ~Copyable {
    /// Each parameter's type OID.
    private let types: [Oid]
    /// Each parameter's text, allocated with `strdup` and freed by `deinit`; `nil` for `NULL`.
    private let texts: [UnsafeMutablePointer<CChar>?]

    /// The type OID of `bigint`.
    private static let int8: Oid = 20
    /// The type OID of `boolean`.
    private static let bool: Oid = 16
    /// No type: the server infers it from the parameter's place in the statement.
    private static let untyped: Oid = 0

    /// Encodes `parameters`.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/client`` when a text parameter
    ///   holds a NUL character, which PostgreSQL text cannot store and a C string would cut.
    init(_ parameters: [PostgresValue?], sql: String) throws(PostgresError) {
        var types: [Oid] = []
        var texts: [UnsafeMutablePointer<CChar>?] = []
        for (offset, parameter) in parameters.enumerated() {
            switch parameter {
            case nil:
                types.append(Self.untyped)
                texts.append(nil)
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    texts.forEach { free($0) }
                    throw PostgresError(
                        client: "parameter $\(offset + 1) holds a NUL character, which PostgreSQL text cannot store",
                        sql: sql)
                }
                types.append(Self.untyped)
                texts.append(strdup(text))
            case .integer(let integer):
                types.append(Self.int8)
                texts.append(strdup(String(integer)))
            case .boolean(let boolean):
                types.append(Self.bool)
                texts.append(strdup(boolean ? "true" : "false"))
            }
        }
        self.types = types
        self.texts = texts
    }

    deinit {
        texts.forEach { free($0) }
    }

    /// How many parameters there are.
    var count: Int { types.count }

    /// The parameters' declared types, as text: what a statement prepared for them depends on.
    var typeSignature: String { types.map(String.init).joined(separator: ",") }

    /// Calls `body` with the type OIDs and the values, as `PQexecParams`'s `paramTypes` and
    /// `paramValues`.
    func withUnsafeArguments<R>(
        _ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?) -> R
    ) -> R {
        types.withUnsafeBufferPointer { types in
            texts.withUnsafeBufferPointer { texts in
                let values = UnsafeRawPointer(texts.baseAddress)?.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
                return body(types.baseAddress, values)
            }
        }
    }
}
