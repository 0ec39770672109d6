import Foundation

/// Reading prices as `.storekit` files write them, and showing them as customers see them.
enum Price {
    /// Parses a price written in US notation without a currency symbol ("0.99", "199.99", "0.5"),
    /// or returns `nil` for anything else ("1,99", "$1", "-1", "1e3", ".5", "").
    ///
    /// The digits go straight into a `Decimal`; the value never passes through `Double`.
    static func parse(_ text: String) -> Decimal? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } })
        else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// The locale whose decimal separator is ".", whatever the host's.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Formats prices in one currency for one locale.
    struct Formatter: Sendable {
        private let style: Decimal.FormatStyle.Currency

        /// Creates a formatter for prices in `currencyCode`, written the way `locale` writes money.
        init(currencyCode: String, locale: Locale) {
            style = Decimal.FormatStyle.Currency(code: currencyCode, locale: locale)
        }

        /// The localized display price, such as "$2.49" or "2,49 €".
        func displayPrice(_ price: Decimal) -> String {
            style.format(price)
        }
    }
}
