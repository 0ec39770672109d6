import CommandLineOptions
import Foundation
import StoreCore
import StorePolicy

/// `storerules catalog FILE [--json] [--locale L]`.
enum CatalogCommand: Command {
    static let name = "catalog"
    static let summary = "Show a .storekit catalog as text or JSON"
    static var help: String { """
    Usage: storerules catalog FILE|- [--json] [--locale L] [--storefront S]

    Loads an Xcode .storekit configuration file (any format version, 1.0 to 5.0) and prints
    its products, subscription groups and settings.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let jsonFlag = CommandOption.json(
        help: #"Print JSON with the field names Lua policies see: a "products" array (subscriptions carry "subscription") "#
            + #"and a "groups" array."#)
    static let locale = TypedOption<String>.text(
        "locale", "L", help: "Localize names and prices for L (default: the file's _locale, else en_US).")
    static let storefront = TypedOption<String>.text(
        "storefront", "S", help: "Price in the currency of storefront S, ISO 3166-1 alpha-3 (default: the file's _storefront, else USA).")

    static let syntax = CommandSyntax(name, options: [jsonFlag, locale.option, storefront.option])

    /// The JSON form of a catalog.
    struct Listing: Encodable {
        let file: String
        let storefront: String
        let locale: String
        let products: [PolicyProduct]
        let groups: [PolicyCatalog.Group]
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the .storekit FILE")
        try parsed.expectPositionals(atMost: 1)
        let data = try readCatalogFile(path)
        let (localeIdentifier, storefrontCode) = (try parsed.value(of: locale), try parsed.value(of: storefront))
        let catalog: Catalog
        do {
            catalog = try Catalog(data: data, fileName: URL(fileURLWithPath: path).lastPathComponent,
                                  localeIdentifier: localeIdentifier, storefront: storefrontCode)
        } catch {
            throw CommandFailure(error.description)
        }
        let view = PolicyCatalog(catalog)
        if parsed.printsJSON {
            let groups = catalog.subscriptionGroups.compactMap { view.groups[$0.id] }
            let listing = Listing(file: catalog.fileName, storefront: catalog.storefront.countryCode,
                                  locale: catalog.localeIdentifier,
                                  products: catalog.products.map(PolicyProduct.init), groups: groups)
            Output.line(try Output.json(listing, pretty: true))
        } else {
            Output.line(describe(catalog))
        }
        return 0
    }

    /// The bytes of the catalog at `path` — a file, a pipe or `-` for standard input; for a
    /// folder, a failure naming its one .storekit file when it has exactly one.
    static func readCatalogFile(_ path: String) throws(CommandFailure) -> Data {
        do {
            return try InputFile.read(path)
        } catch let error where error.reason == .isFolder {
            let catalogs = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.hasSuffix(".storekit") }
            let hint = catalogs.count == 1
                ? "; did you mean \(path.hasSuffix("/") ? path : path + "/")\(catalogs[0])?" : ""
            throw CommandFailure("\(path) is a folder, not a .storekit file\(hint)")
        } catch {
            throw CommandFailure(error.description)
        }
    }

    static func describe(_ catalog: Catalog) -> String {
        var lines: [String] = []
        let version = catalog.formatVersion.map { " (format \($0))" } ?? ""
        lines.append("\(catalog.fileName)\(version): storefront \(catalog.storefront.countryCode) (\(catalog.storefront.currencyCode)), locale \(catalog.localeIdentifier)")
        let width = max(12, catalog.products.map(\.id.count).max() ?? 0)
        func row(_ product: Product, _ extra: String = "") -> String {
            "  " + product.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + product.displayName.padding(toLength: 24, withPad: " ", startingAt: 0) + "  " + product.displayPrice + extra
        }
        for type in [ProductType.consumable, .nonConsumable, .nonRenewable] {
            let products = catalog.products.filter { $0.type == type }
            guard !products.isEmpty else { continue }
            lines.append("")
            lines.append(type.heading)
            lines.append(contentsOf: products.map { row($0) })
        }
        for group in catalog.subscriptionGroups {
            lines.append("")
            lines.append("Subscription group \"\(group.displayName)\" (\(group.id))")
            for product in group.subscriptions {
                guard let info = product.subscription else { continue }
                var extra = " every \(info.subscriptionPeriod.phrase)  level \(info.groupLevel)"
                if let intro = info.introductoryOffer { extra += "  intro: \(intro.phrase)" }
                if !info.promotionalOffers.isEmpty {
                    extra += "  promotional: " + info.promotionalOffers.map { "\($0.id ?? "?") (\($0.phrase))" }.joined(separator: ", ")
                }
                if !info.winBackOffers.isEmpty {
                    extra += "  win-back: " + info.winBackOffers.map { "\($0.id ?? "?") (\($0.phrase))" }.joined(separator: ", ")
                }
                lines.append(row(product, extra))
            }
        }
        let settings = catalog.settings
        lines.append("")
        lines.append("Settings: time rate \(settings.timeRate), Ask to Buy \(settings.askToBuyEnabled ? "on" : "off"), "
                     + "billing retry \(settings.shouldEnterBillingRetryOnRenewal ? "on" : "off"), "
                     + "grace period \(settings.billingGracePeriodIsEnabled ? "on" : "off")")
        return lines.joined(separator: "\n")
    }
}

extension ProductType {
    /// The heading the text listing uses for products of this type.
    var heading: String {
        switch self {
        case .consumable: return "Consumables"
        case .nonConsumable: return "Non-consumables"
        case .nonRenewable: return "Non-renewing subscriptions"
        case .autoRenewable: return "Auto-renewable subscriptions"
        }
    }
}

extension SubscriptionPeriod {
    /// "month", "3 months", "week".
    var phrase: String {
        value == 1 ? unit.rawValue : "\(value) \(unit.rawValue)s"
    }
}

extension Product.SubscriptionOffer {
    /// "1 month free", "3 months at $2.49/month", "$1.99 for 2 months".
    var phrase: String {
        switch paymentMode {
        case .freeTrial:
            let total = SubscriptionPeriod(value: period.value * periodCount, unit: period.unit) ?? period
            return "\(total.value) \(total.value == 1 ? total.unit.rawValue : total.unit.rawValue + "s") free"
        case .payAsYouGo:
            return "\(periodCount) \(periodCount == 1 ? period.phrase : period.phrase + "s") at \(displayPrice)/\(period.phrase)"
        case .payUpFront:
            return "\(displayPrice) for \(period.value) \(period.value == 1 ? period.unit.rawValue : period.unit.rawValue + "s")"
        }
    }
}
