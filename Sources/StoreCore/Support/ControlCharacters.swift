extension Unicode.Scalar {
    /// Whether the scalar is a control character (U+0000–U+001F, U+007F–U+009F), which no id,
    /// name or placement may hold.
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}

extension StringProtocol {
    /// Whether the text holds a control character.
    public var containsControlCharacter: Bool {
        unicodeScalars.contains(where: \.isControlCharacter)
    }
}
