import CommandLineOptions
import StoreTesting

/// `--store-clock STATE`: decide at a local store's time instead of the host's, for a ledger that
/// store feeds, so its advanced clock shows through `serve` and `ledger customer` as it does in
/// `store` itself. Explicit, and refused for a production service.
enum StoreClockOption {
    /// The option's declaration and how its value is read.
    static let declaration = TypedOption<LocalStoreClockReader>.value(
        "store-clock", "STATE",
        help: "Decide at the local store's time, read from its state file (LEDGER.store.sqlite, or its --store-state) "
            + "at every decision, instead of the host's: for a ledger a local store feeds, never one Apple feeds."
    ) { path throws(UsageError) in
        do {
            return try LocalStoreClockReader(statePath: path)
        } catch {
            throw UsageError("--store-clock: \(error)")
        }
    }
}
