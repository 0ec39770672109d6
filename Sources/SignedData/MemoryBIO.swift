import COpenSSL
import Foundation

/// An OpenSSL memory BIO, for reading and writing PEM text.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// A BIO that reads the given bytes.
    init(reading data: Data) {
        let bio = data.withUnsafeBytes { buffer in
            BIO_new(BIO_s_mem()).map { bio -> OpaquePointer in
                BIO_write(bio, buffer.baseAddress, Int32(buffer.count))
                return bio
            }
        }
        guard let bio else { fatalError("OpenSSL could not allocate a memory BIO") }
        pointer = bio
    }

    /// An empty BIO to write into.
    init() {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("OpenSSL could not allocate a memory BIO") }
        pointer = bio
    }

    deinit {
        BIO_free(pointer)
    }

    /// Everything written into the BIO so far.
    var contents: Data {
        var start: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(pointer, BIO_CTRL_INFO, 0, &start)
        guard let start, length > 0 else { return Data() }
        return Data(bytes: start, count: length)
    }
}
