import StoreCore

extension PolicyContext.Environment {
    /// The policy's environment for signed data from `environment`: `Production` is
    /// production, `Sandbox` is sandbox, and `Xcode`, `LocalTesting` and values Apple adds
    /// later are the local test store (xcode).
    public init(_ environment: AppStoreEnvironment) {
        switch environment {
        case .production: self = .production
        case .sandbox: self = .sandbox
        default: self = .xcode
        }
    }
}
