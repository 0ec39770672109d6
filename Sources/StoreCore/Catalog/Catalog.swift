import Foundation

/// The products of an app, loaded from an Xcode StoreKit configuration file (`.storekit`), with
/// StoreKit 2's names.
///
/// Files of every format version (1.0 to 5.0) load: the keys present decide what is read, unknown
/// keys are ignored, and missing keys or `null`s take the documented defaults. Display names,
/// descriptions and prices are localized once, at load time, for one locale and storefront.
///
/// ```swift
/// let catalog = try Catalog(contentsOf: URL(filePath: "Products.storekit"))
/// let lookup = catalog.products(for: ["pass.premium", "pellet.box"])
/// ```
public struct Catalog: Sendable, Equatable {
    /// The file name the catalog was loaded from; it prefixes every ``CatalogError``.
    public let fileName: String
    /// The file's identifier (`identifier`; absent before format 1.1).
    public let identifier: String?
    /// The file's format version (`version`), when present.
    public let formatVersion: FormatVersion?
    /// Every product: first `products`, then `nonRenewingSubscriptions`, then the subscriptions of
    /// each group, all in file order.
    public let products: [Product]
    /// The subscription groups, in file order.
    public let subscriptionGroups: [SubscriptionGroup]
    /// The test-store settings.
    public let settings: Settings
    /// The app's license agreement and privacy policies (format 4.0 and later).
    public let appPolicies: AppPolicies?
    /// The local key for signing promotional offers, when the file has one.
    public let subscriptionOffersKeyPair: SubscriptionOffersKeyPair?
    /// The locale display names, descriptions and prices were localized for.
    public let localeIdentifier: String
    /// The storefront prices are in.
    public let storefront: Storefront

    private let productIndexByID: [String: Int]
    private let groupIndexByID: [String: Int]

    /// Loads the `.storekit` file at `url`.
    ///
    /// - Parameters:
    ///   - localeIdentifier: The locale to localize for; by default the file's `_locale`, else "en_US".
    ///   - storefront: The storefront (ISO 3166-1 alpha-3) whose currency prices are shown in; by
    ///     default the file's `_storefront`, else "USA".
    /// - Throws: A ``CatalogError`` naming the file, the JSON path and the problem.
    public init(contentsOf url: URL, localeIdentifier: String? = nil, storefront: String? = nil) throws(CatalogError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CatalogError(fileName: url.lastPathComponent, path: "",
                               problem: .unreadableFile(reason: (error as NSError).localizedDescription))
        }
        try self.init(data: data, fileName: url.lastPathComponent, localeIdentifier: localeIdentifier, storefront: storefront)
    }

    /// Loads a `.storekit` configuration from its bytes; `fileName` names it in errors.
    ///
    /// - Parameters:
    ///   - localeIdentifier: The locale to localize for; by default the file's `_locale`, else "en_US".
    ///   - storefront: The storefront (ISO 3166-1 alpha-3) whose currency prices are shown in; by
    ///     default the file's `_storefront`, else "USA".
    /// - Throws: A ``CatalogError`` naming the file, the JSON path and the problem.
    public init(data: Data, fileName: String, localeIdentifier: String? = nil, storefront: String? = nil) throws(CatalogError) {
        do {
            self = try CatalogDecoder.decode(data, fileName: fileName, localeIdentifier: localeIdentifier,
                                             storefront: storefront)
        } catch {
            throw CatalogError(fileName: fileName, path: error.path.description, problem: error.problem)
        }
    }

    /// Assembles a decoded catalog and indexes it for lookup.
    init(fileName: String, identifier: String?, formatVersion: FormatVersion?, products: [Product],
         subscriptionGroups: [SubscriptionGroup], settings: Settings, appPolicies: AppPolicies?,
         subscriptionOffersKeyPair: SubscriptionOffersKeyPair?, localeIdentifier: String, storefront: Storefront) {
        self.fileName = fileName
        self.identifier = identifier
        self.formatVersion = formatVersion
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.settings = settings
        self.appPolicies = appPolicies
        self.subscriptionOffersKeyPair = subscriptionOffersKeyPair
        self.localeIdentifier = localeIdentifier
        self.storefront = storefront
        productIndexByID = Dictionary(uniqueKeysWithValues: products.enumerated().map { ($0.element.id, $0.offset) })
        groupIndexByID = Dictionary(uniqueKeysWithValues: subscriptionGroups.enumerated().map { ($0.element.id, $0.offset) })
    }

    /// The product with identifier `id`, if the catalog has it.
    public func product(id: String) -> Product? {
        productIndexByID[id].map { products[$0] }
    }

    /// The subscription group with identifier `id`, if the catalog has it.
    public func group(id: String) -> SubscriptionGroup? {
        groupIndexByID[id].map { subscriptionGroups[$0] }
    }

    /// The subscriptions of the group with identifier `groupID`, highest level of service first;
    /// empty when there is no such group.
    public func subscriptions(inGroup groupID: String) -> [Product] {
        group(id: groupID)?.subscriptions ?? []
    }

    /// Looks up products by identifier, as StoreKit's `Product.products(for:)` does: products that
    /// exist come back, the other identifiers are reported unavailable.
    ///
    /// Both lists follow the order of `identifiers`, each identifier once (repeats are ignored).
    public func products(for identifiers: some Sequence<String>) -> ProductLookup {
        var seen = Set<String>()
        var found: [Product] = []
        var unavailable: [String] = []
        for id in identifiers where seen.insert(id).inserted {
            if let product = product(id: id) {
                found.append(product)
            } else {
                unavailable.append(id)
            }
        }
        return ProductLookup(products: found, unavailableIdentifiers: unavailable)
    }
}
