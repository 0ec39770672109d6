/// A product's or a subscription group's name and description in one locale, as the `.storekit`
/// file lists them.
public struct Localization: Sendable, Hashable {
    /// The locale, in the file's underscore form: `en_US`, `ar`, `ko_KR`.
    public let locale: String
    /// The name shown to customers; may be empty.
    public let displayName: String
    /// The description shown to customers; may be empty.
    public let description: String

    /// Creates a localization.
    public init(locale: String, displayName: String, description: String) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}

extension Array where Element == Localization {
    /// The localization that best fits `localeIdentifier`: the one with the same locale, else the first
    /// with the same language, else the first one; `nil` only when there are none.
    ///
    /// Locales compare without regard to case or to `-` versus `_` (`en-us` matches `en_US`).
    public func bestMatch(for localeIdentifier: String) -> Localization? {
        let wanted = LocaleKey(localeIdentifier)
        return first { LocaleKey($0.locale).identifier == wanted.identifier }
            ?? first { LocaleKey($0.locale).language == wanted.language }
            ?? first
    }
}

/// A locale identifier normalised for matching.
private struct LocaleKey {
    /// The whole identifier, lowercased, with `_` separators.
    let identifier: String
    /// The language part: what comes before the first separator.
    let language: Substring

    init(_ text: String) {
        identifier = String(text.lowercased().map { $0 == "-" ? "_" : $0 })
        language = identifier.prefix { $0 != "_" }
    }
}
