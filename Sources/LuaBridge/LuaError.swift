/// An error raised while loading or running Lua code.
///
/// Every error says which chunk and line it came from when Lua knows it, and carries the
/// traceback of the failing call. `description` is one readable line.
public struct LuaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The chunk does not compile.
        case syntax
        /// The code raised an error while running.
        case runtime
        /// The state's memory cap refused an allocation.
        case memory
        /// The call used up its instruction budget.
        case instructionBudget = "instruction_budget"
        /// The call ran past its wall-clock deadline.
        case deadline
        /// The code ran but returned something the caller cannot use.
        case badResult = "bad_result"
    }

    /// What went wrong, broadly.
    public var kind: Kind
    /// The chunk the error points into (for example `policy.lua`), when known.
    public var chunkName: String?
    /// The line in that chunk, when known.
    public var line: Int?
    /// The message, without the chunk and line prefix.
    public var message: String
    /// The Lua traceback of the failing call, when there was one.
    public var traceback: String?

    /// Creates an error.
    public init(kind: Kind, chunkName: String? = nil, line: Int? = nil, message: String, traceback: String? = nil) {
        self.kind = kind
        self.chunkName = chunkName
        self.line = line
        self.message = message
        self.traceback = traceback
    }

    /// Where the error happened, as `chunk:line`, `chunk` or nothing.
    public var location: String? {
        switch (chunkName, line) {
        case let (chunk?, line?): return "\(chunk):\(line)"
        case let (chunk?, nil): return chunk
        default: return nil
        }
    }

    /// One line: the kind, the location when known, and the message.
    public var description: String {
        let prefix: String
        switch kind {
        case .syntax: prefix = "syntax error"
        case .runtime: prefix = "runtime error"
        case .memory: prefix = "memory limit"
        case .instructionBudget: prefix = "instruction budget exhausted"
        case .deadline: prefix = "deadline passed"
        case .badResult: prefix = "bad result"
        }
        if let location {
            return "\(prefix) at \(location): \(message)"
        }
        return "\(prefix): \(message)"
    }

    /// Splits a Lua message of the form `chunk:line: text` into its parts.
    ///
    /// Messages without a position (errors raised with level 0, non-string error values)
    /// keep `defaultChunk` as their chunk and no line.
    static func located(kind: Kind, rawMessage: String, traceback: String?, defaultChunk: String?) -> LuaError {
        if let position = parsePosition(rawMessage) {
            return LuaError(kind: kind, chunkName: position.chunk, line: position.line,
                            message: position.text, traceback: traceback)
        }
        let line = traceback.flatMap { firstPosition(in: $0, chunk: defaultChunk) }
        return LuaError(kind: kind, chunkName: defaultChunk, line: line, message: rawMessage, traceback: traceback)
    }

    private static func parsePosition(_ message: String) -> (chunk: String, line: Int, text: String)? {
        var search = message.startIndex
        while let colon = message[search...].firstIndex(of: ":") {
            let afterColon = message.index(after: colon)
            let digits = message[afterColon...].prefix(while: \.isASCII).prefix(while: \.isNumber)
            if !digits.isEmpty, let line = Int(digits) {
                let rest = message[digits.endIndex...]
                if rest.hasPrefix(": ") || rest.isEmpty {
                    let chunk = String(message[..<colon])
                    if !chunk.isEmpty, !chunk.contains("\n") {
                        return (chunk, line, String(rest.dropFirst(rest.isEmpty ? 0 : 2)))
                    }
                }
            }
            search = afterColon
        }
        return nil
    }

    private static func firstPosition(in traceback: String, chunk: String?) -> Int? {
        guard let chunk else { return nil }
        for line in traceback.split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix(chunk + ":"),
               let parsed = parsePosition(String(trimmed)), parsed.chunk == chunk {
                return parsed.line
            }
        }
        return nil
    }
}
