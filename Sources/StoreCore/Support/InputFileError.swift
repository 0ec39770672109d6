import Foundation

/// Why ``InputFile`` could not read a file, said in one line: `cannot read PATH: REASON`.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// Nothing exists at the path.
        case noSuchFile
        /// The path names a folder.
        case isFolder
        /// The file exists but may not be read.
        case permissionDenied
        /// Another failure of the system, in its own words.
        case system(String)
    }

    /// The path as given.
    public let path: String
    /// What went wrong.
    public let reason: Reason

    /// An error about `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// An error about `path` from the system's error number.
    init(path: String, errorNumber: Int32) {
        let reason: Reason = switch errorNumber {
        case ENOENT, ENOTDIR: .noSuchFile
        case EISDIR: .isFolder
        case EACCES, EPERM: .permissionDenied
        default: .system(String(cString: strerror(errorNumber)))
        }
        self.init(path: path, reason: reason)
    }

    /// The reason in words: `no such file`, `it is a folder`, `permission denied`.
    public var explanation: String {
        switch reason {
        case .noSuchFile: "no such file"
        case .isFolder: "it is a folder"
        case .permissionDenied: "permission denied"
        case .system(let text): text
        }
    }

    /// `cannot read PATH: REASON`.
    public var description: String {
        "cannot read \(path): \(explanation)"
    }
}
