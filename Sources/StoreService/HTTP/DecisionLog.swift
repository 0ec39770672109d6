import Foundation
import LuaBridge
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

    private let handle: FileHandle
    private let lock = Mutex(())
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A log appending to `handle`.
    public init(handle: FileHandle) {
        self.handle = handle
    }

    /// A log appending to the file at `path`, created when missing. The file is opened for
    /// appending, so several processes may share it and a rotation that truncates it leaves no hole.
    ///
    /// - Throws: when the file cannot be created or opened for writing.
    public convenience init(appendingTo path: String) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path,
                                                               NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        self.init(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// Appends one entry; a line that cannot be written is dropped, never the decision.
    public func record(_ entry: Entry) {
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        lock.withLock { _ in try? handle.write(contentsOf: line) }
    }
}
