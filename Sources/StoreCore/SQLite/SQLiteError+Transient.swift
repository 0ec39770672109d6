import CSQLite

extension SQLiteError: TransientFailureReporting {
    /// Whether the failure may pass: the file was busy or locked by another connection, or
    /// the disk was full or could not be read or written for a moment.
    public var isTransient: Bool {
        [SQLiteResultCode.busy, SQLiteResultCode(rawValue: SQLITE_LOCKED), SQLiteResultCode(rawValue: SQLITE_IOERR),
         SQLiteResultCode(rawValue: SQLITE_FULL)].contains(resultCode)
    }
}
