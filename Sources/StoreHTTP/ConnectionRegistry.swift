import Foundation
import Synchronization

/// The server's open connections: admitted under the caps (all connections, and optionally
/// each client address's), counted, and shut all at once when the server stops.
final class ConnectionRegistry: Sendable {
    private struct State {
        var open: Set<Int32> = []
        var byAddress: [String: Int] = [:]
    }

    private let connectionLimit: Int
    private let perAddressLimit: Int?
    private let state = Mutex(State())

    /// A registry admitting at most `connectionLimit` connections, and `perAddressLimit` from
    /// one address when given.
    init(connectionLimit: Int, perAddressLimit: Int?) {
        self.connectionLimit = max(1, connectionLimit)
        self.perAddressLimit = perAddressLimit
    }

    /// How many connections are open.
    var count: Int {
        state.withLock { $0.open.count }
    }

    /// What admitting a connection found.
    enum Admission {
        case admitted
        /// The server holds as many connections as it may.
        case overConnectionLimit
        /// The client's address holds as many as it may.
        case overAddressLimit
    }

    /// Admits `socket` from `address` under the caps.
    func admit(_ socket: Int32, from address: String) -> Admission {
        state.withLock { state in
            guard state.open.count < connectionLimit else { return .overConnectionLimit }
            guard perAddressLimit.map({ (state.byAddress[address] ?? 0) < $0 }) ?? true else { return .overAddressLimit }
            state.open.insert(socket)
            state.byAddress[address, default: 0] += 1
            return .admitted
        }
    }

    /// Forgets `socket` and closes it, under the lock, so ``shutAll()`` never reaches a socket
    /// number the system has given to something else.
    func close(_ socket: Int32, from address: String) {
        state.withLock { state in
            state.open.remove(socket)
            let left = (state.byAddress[address] ?? 1) - 1
            state.byAddress[address] = left > 0 ? left : nil
            Foundation.close(socket)
        }
    }

    /// Shuts every open connection, which wakes its thread and ends it.
    func shutAll() {
        state.withLock { state in
            for socket in state.open { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }
}
