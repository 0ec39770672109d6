import Foundation
import LuaBridge
import StoreCore
import StorePolicy
import Synchronization

/// One JSON line per decision, as OPA's decision logs keep them: when, which request, for whom,
/// which hook with which inputs, the result, where it came from, the policy version, and how
/// long it took.
public final class DecisionLog: Sendable {
    /// One logged decision.
    public struct Entry: Encodable, Sendable {
        /// When the decision was made, ISO 8601 with milliseconds.
        public var time: String
        /// The request's id: its `X-Request-Id`, or one made up.
        public var requestID: String
        /// The customer decided for, when the ledger's state was used.
        public var customer: String?
        /// The hook.
        public var hook: String
        /// The arguments after `ctx`.
        public var inputs: [LuaValue]
        /// The decision.
        public var result: HookResult
        /// `policy`, `default` or `fallback`.
        public var source: String?
        /// The policy version that decided.
        public var policyVersion: String
        /// How long the decision took, in milliseconds.
        public var durationMilliseconds: Double

        private enum CodingKeys: String, CodingKey {
            case time, requestID = "request_id", customer, hook, inputs, result, source
            case policyVersion = "policy_version", durationMilliseconds = "duration_ms"
        }
    }

    /// The file appended to, when the log is a file; it is opened again by ``reopen()``.
    public let path: String?
    private let handle: Mutex<FileHandle>
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A log appending to `handle`.
    public init(handle: FileHandle) {
        self.handle = Mutex(handle)
        path = nil
    }

    private init(handle: FileHandle, path: String) {
        self.handle = Mutex(handle)
        self.path = path
    }

    /// A log appending to the file at `path`, created when missing, readable by its owner alone
    /// (``StoreCore/OwnerOnlyFile``): decisions name customers. The file is opened for
    /// appending, so several processes may share it and a rotation that truncates it leaves no hole.
    ///
    /// - Throws: when the file cannot be created or opened for writing.
    public convenience init(appendingTo path: String) throws {
        self.init(handle: try Self.open(path), path: path)
    }

    /// Opens the log's file again, as after logrotate moved it away: the lines from now on go
    /// to a file at the log's path, created when missing as its owner's alone. A log that is no
    /// file does nothing.
    ///
    /// - Throws: when the file cannot be opened; the log keeps writing where it did.
    public func reopen() throws {
        guard let path else { return }
        let fresh = try Self.open(path)
        handle.withLock { $0 = fresh }
    }

    /// A decision's time as entries write it: ISO 8601 with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Appends one entry; a line that cannot be written is dropped, never the decision.
    public func record(_ entry: Entry) {
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        handle.withLock { try? $0.write(contentsOf: line) }
    }

    private static func open(_ path: String) throws -> FileHandle {
        let descriptor = OwnerOnlyFile.open(path, flags: O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path,
                                                               NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
