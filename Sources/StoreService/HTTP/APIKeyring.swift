import Foundation
import StoreCore
import StorePolicy

/// The API keys a service accepts, each with its role, read from a file of `ROLE KEY` lines.
///
/// ```
/// # who        key
/// app   3f6c0f2e9d1b4a7c8e5f2a1b0c9d8e7f
/// admin 9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d
/// ```
///
/// Blank lines and lines starting with `#` are skipped, and lines may end in CRLF. A key is at
/// least 16 characters without spaces, and appears once; a file must hold at least one key. Keys are kept as SHA-256 digests and a presented key is compared
/// with every one of them in constant time, so neither the comparison nor which key matched
/// shows in the time it takes.
public struct APIKeyring: Sendable {
    /// The shortest key accepted.
    public static let minimumKeyLength = 16

    private let entries: [(role: ServiceRole, digest: [UInt8])]

    /// The roles the keyring grants keys to, sorted, and how many keys each has.
    public var keyCounts: [ServiceRole: Int] {
        Dictionary(grouping: entries, by: \.role).mapValues(\.count)
    }

    /// Reads a keyring from the text of a keys file.
    ///
    /// - Throws: ``APIKeyringError`` naming the first wrong line.
    public init(text: String) throws(APIKeyringError) {
        var entries: [(ServiceRole, [UInt8])] = []
        var seen: Set<[UInt8]> = []
        // "\r\n" is one Character in Swift, so lines are split on every kind of line end.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            let number = index + 1
            guard fields.count == 2 else {
                throw APIKeyringError(line: number, problem: "expected `ROLE KEY`, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
            }
            guard let role = ServiceRole(rawValue: fields[0]) else {
                let known = ServiceRole.allCases.map(\.rawValue)
                let hint = NearestName.nearest(to: fields[0], in: known).map { "; did you mean '\($0)'?" } ?? "; roles: \(known.joined(separator: ", "))"
                throw APIKeyringError(line: number, problem: "unknown role '\(fields[0])'\(hint)")
            }
            guard fields[1].count >= Self.minimumKeyLength else {
                throw APIKeyringError(line: number, problem: "the key is shorter than \(Self.minimumKeyLength) characters")
            }
            let digest = Self.digest(of: fields[1])
            guard seen.insert(digest).inserted else {
                throw APIKeyringError(line: number, problem: "the key appears on an earlier line too")
            }
            entries.append((role, digest))
        }
        guard !entries.isEmpty else {
            throw APIKeyringError(line: nil, problem: "holds no keys: give at least one `ROLE KEY` line (roles app and admin)")
        }
        self.entries = entries
    }

    /// How many keys of each role the keyring holds, as a log line says it: `1 app key, 2 admin
    /// keys`. Never a key.
    public var summary: String {
        ServiceRole.allCases.map { role in
            let count = keyCounts[role] ?? 0
            return "\(count) \(role.rawValue) key\(count == 1 ? "" : "s")"
        }.joined(separator: ", ")
    }

    /// A warning when the file at `path` may be read by its group or by others, who could then
    /// read every key; nil when only its owner may.
    public static func permissionWarning(forFileAt path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return nil }
        return "\(path) may be read by its group or others (mode \(String(status.st_mode & 0o777, radix: 8))); "
            + "chmod 600 it so that only its owner reads the keys"
    }

    /// Reads the keys file at `path`.
    ///
    /// - Throws: ``APIKeyringError`` when the file cannot be read or a line is wrong.
    public init(contentsOf path: String) throws(APIKeyringError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw APIKeyringError(file: path, line: nil, problem: Self.unreadable(path))
        }
        do {
            try self.init(text: text)
        } catch {
            throw APIKeyringError(file: path, line: error.line, problem: error.problem)
        }
    }

    /// The role of `key`, or nil when the keyring does not hold it. Takes the same time
    /// whichever key, if any, matches.
    public func role(of key: String) -> ServiceRole? {
        let presented = Self.digest(of: key)
        var found: ServiceRole?
        for entry in entries {
            var difference: UInt8 = 0
            for index in 0..<presented.count {
                difference |= presented[index] ^ entry.digest[index]
            }
            if difference == 0 { found = entry.role }
        }
        return found
    }

    /// Why the file at `path` cannot be read, in the system's words.
    private static func unreadable(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "does not exist" }
        if isDirectory.boolValue { return "is a folder, not a keys file" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "cannot be read: permission denied" }
        return "cannot be read as UTF-8 text"
    }

    private static func digest(of key: String) -> [UInt8] {
        SHA256Digest.bytes(of: key)
    }
}

/// A keys file that cannot be used.
public struct APIKeyringError: Error, Sendable, CustomStringConvertible {
    /// The file, when the keys came from one.
    public let file: String?
    /// The line at fault, counted from 1; nil when the file could not be read.
    public let line: Int?
    /// What is wrong.
    public let problem: String

    /// Describes what is wrong, and where.
    public init(file: String? = nil, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String {
        switch (file, line) {
        case let (file?, line?): "\(file), line \(line): \(problem)"
        case let (nil, line?): "line \(line): \(problem)"
        case let (file?, nil): "\(file) \(problem)"
        case (nil, nil): problem
        }
    }
}
