/// Turns Swift property names into the snake_case keys Lua code sees.
///
/// Conversions are remembered, so a key is converted once per cache, not once per value.
final class LuaKeyStyle {
    private var snakeCaseKeys: [String: String] = [:]

    /// `displayName` → `display_name`, `transactionID` → `transaction_id`.
    func luaKey(for swiftKey: String) -> String {
        if let known = snakeCaseKeys[swiftKey] { return known }
        let converted = Self.snakeCase(swiftKey)
        snakeCaseKeys[swiftKey] = converted
        return converted
    }

    static func snakeCase(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        result.reserveCapacity(characters.count + 4)
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previousIsLower = index > 0 && (characters[index - 1].isLowercase || characters[index - 1].isNumber)
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                let previousIsUpper = index > 0 && characters[index - 1].isUppercase
                if index > 0 && (previousIsLower || (previousIsUpper && nextIsLower)) {
                    result.append("_")
                }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension LuaEncoder {
    /// The keys Lua sees for the stored properties of `value`, as the encoder writes them
    /// (`transactionId` → `transaction_id`), including those it leaves out when nil.
    public static func luaKeys(ofPropertiesOf value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap { $0.label.map(LuaKeyStyle.snakeCase) }
    }
}
