import StoreCore

/// What every unit of store work reads and never changes: the catalog, the signing
/// authority and the configuration.
struct StoreContext: Sendable {
    let catalog: Catalog
    let authority: SigningAuthority
    let configuration: LocalStore.Configuration
}
