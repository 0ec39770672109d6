/// How far a write has gone when it returns.
public enum LedgerWriteDurability: Sendable, Hashable {
    /// On disk: the write survives a power loss (SQLite's `synchronous=FULL`, PostgreSQL's
    /// `synchronous_commit`). Every write the ledger keeps for money or trust is.
    case disk
    /// Committed: every reader sees it and it survives the process being killed, but it is not
    /// waited on to reach the disk (SQLite's `synchronous=NORMAL`, PostgreSQL's
    /// `synchronous_commit = off` for the transaction), so a power loss may lose the last such
    /// writes. Only for records a later request makes again the same way, as an experiment's
    /// exposure is (its variant comes from the same hash).
    case committed
}
