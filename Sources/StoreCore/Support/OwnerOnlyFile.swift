import Foundation

/// Files that hold customers' purchases or decisions — a SQLite ledger, a decision log — are
/// made readable and writable by their owner alone (mode 0600), whatever the process's umask.
/// A file that is already there keeps the mode it has: its owner chose it.
public enum OwnerOnlyFile {
    /// The mode such a file is made with.
    public static let mode: mode_t = 0o600

    /// Opens the file at `path` with `flags` (no `O_CREAT`), making it with mode 0600 first when
    /// there is none.
    ///
    /// - Returns: the file descriptor, or -1 with `errno` set, as `open(2)` does.
    public static func open(_ path: String, flags: Int32) -> Int32 {
        let made = Foundation.open(path, flags | O_CREAT | O_EXCL, mode)
        if made >= 0 {
            // The umask may have taken permissions off the mode asked for; set exactly 0600.
            fchmod(made, mode)
            return made
        }
        guard errno == EEXIST else { return -1 }
        return Foundation.open(path, flags)
    }

    /// Makes an empty file at `path` with mode 0600 when there is none. A path where no file can
    /// be made is left as it is, for whoever opens it next to report.
    public static func makeIfMissing(_ path: String) {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return }
        fchmod(descriptor, mode)
        close(descriptor)
    }
}
