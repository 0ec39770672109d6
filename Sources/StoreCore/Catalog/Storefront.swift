import Foundation

/// The App Store country a catalog is priced for, and the currency its prices are in.
///
/// Storefronts are named by ISO 3166-1 alpha-3 country codes, as StoreKit's `Storefront.countryCode`
/// and the `_storefront` setting of a `.storekit` file do ("USA", "ESP", "JPN" …).
public struct Storefront: Sendable, Hashable {
    /// The ISO 3166-1 alpha-3 country code, uppercased.
    public let countryCode: String
    /// The ISO 4217 code of the currency prices are shown in.
    public let currencyCode: String

    /// Creates a storefront whose currency is the App Store's currency for `countryCode`, else the
    /// currency of `locale` (when it names a region), else US dollars.
    public init(countryCode: String, locale: Locale) {
        let code = countryCode.uppercased()
        self.countryCode = code
        currencyCode = Self.appStoreCurrencyCode(forCountryCode: code) ?? locale.currency?.identifier ?? "USD"
    }

    /// The currency the App Store prices in for the storefront `countryCode` (ISO 3166-1 alpha-3,
    /// any case), or `nil` for a country this table does not cover.
    public static func appStoreCurrencyCode(forCountryCode countryCode: String) -> String? {
        currencyByCountry[countryCode.uppercased()]
    }

    /// App Store pricing currencies by storefront. Storefronts the App Store prices in US dollars
    /// although the country has its own currency are listed under "USD".
    private static let currencyByCountry: [String: String] = {
        let groups: [String: [String]] = [
            "AED": ["ARE"], "AUD": ["AUS"], "BRL": ["BRA"], "CAD": ["CAN"], "CHF": ["CHE", "LIE"],
            "CLP": ["CHL"], "CNY": ["CHN"], "COP": ["COL"], "CZK": ["CZE"], "DKK": ["DNK"], "EGP": ["EGY"],
            "EUR": ["AUT", "BEL", "BGR", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA",
                    "LTU", "LUX", "LVA", "MLT", "NLD", "PRT", "SVK", "SVN"],
            "GBP": ["GBR"], "HKD": ["HKG"], "HUF": ["HUN"], "IDR": ["IDN"], "ILS": ["ISR"], "INR": ["IND"],
            "JPY": ["JPN"], "KRW": ["KOR"], "KZT": ["KAZ"], "MXN": ["MEX"], "MYR": ["MYS"], "NGN": ["NGA"],
            "NOK": ["NOR"], "NZD": ["NZL"], "PEN": ["PER"], "PHP": ["PHL"], "PKR": ["PAK"], "PLN": ["POL"],
            "QAR": ["QAT"], "RON": ["ROU"], "RUB": ["RUS"], "SAR": ["SAU"], "SEK": ["SWE"], "SGD": ["SGP"],
            "THB": ["THA"], "TRY": ["TUR"], "TWD": ["TWN"], "TZS": ["TZA"], "VND": ["VNM"], "ZAR": ["ZAF"],
            "USD": ["USA", "AFG", "AGO", "AIA", "ALB", "ARG", "ARM", "ATG", "AZE", "BHR", "BHS", "BLR", "BLZ",
                    "BMU", "BOL", "BRB", "BRN", "BTN", "BWA", "CPV", "CRI", "CYM", "DMA", "DOM", "DZA", "ECU",
                    "FJI", "FSM", "GHA", "GRD", "GTM", "GUY", "HND", "ISL", "JAM", "JOR", "KEN", "KGZ", "KHM",
                    "KNA", "KWT", "LAO", "LBN", "LCA", "LKA", "MAC", "MDA", "MDG", "MKD", "MLI", "MNG", "MOZ",
                    "MRT", "MSR", "MUS", "MWI", "NAM", "NER", "NIC", "NPL", "OMN", "PAN", "PLW", "PNG", "PRY",
                    "SEN", "SLB", "SLV", "SUR", "SWZ", "SYC", "TCA", "TCD", "TJK", "TKM", "TTO", "TUN", "UGA",
                    "UKR", "URY", "UZB", "VCT", "VEN", "VGB", "YEM", "ZWE"],
        ]
        var table: [String: String] = [:]
        for (currency, countries) in groups {
            for country in countries { table[country] = currency }
        }
        return table
    }()
}
