import Foundation
import StoreCore

/// Where the App Store Server API answers for each environment.
public enum AppStoreServerAPIBaseURL {
    /// Apple's production server.
    public static let production = URL(string: "https://api.storekit.apple.com")!
    /// Apple's sandbox server.
    public static let sandbox = URL(string: "https://api.storekit-sandbox.apple.com")!

    /// Apple's server for `environment`, or nil for an environment Apple serves no API for
    /// (Xcode, LocalTesting): those need an explicit base URL, such as the local store's.
    public static func apple(for environment: AppStoreEnvironment) -> URL? {
        switch environment {
        case .production: production
        case .sandbox: sandbox
        default: nil
        }
    }
}
