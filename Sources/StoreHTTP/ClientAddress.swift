import Foundation

/// A client's address as text, which the per-address cap counts by and a request carries.
enum ClientAddress {
    /// The address of the peer connected to `socket`, or nil when the system does not say.
    static func peer(of socket: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard found == 0 else { return nil }
        let text = self.text(of: storage)
        return text == "unknown" ? nil : text
    }

    static func text(of storage: sockaddr_storage) -> String {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var bytes = v4.pointee.sin_addr
                    return inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var bytes = v6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
                }
            default:
                nil
            }
        }
        return written == nil ? "unknown" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
