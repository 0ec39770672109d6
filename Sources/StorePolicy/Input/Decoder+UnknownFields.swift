extension Decoder {
    /// Refuses an object field that `Key` does not name, with the nearest name it does.
    ///
    /// - Throws: ``PolicyInputError/unknownField(path:field:known:)`` for the first such field.
    package func refuseUnknownFields<Key: CodingKey & CaseIterable>(_ type: Key.Type) throws {
        try refuseFields(except: Key.allCases.map(\.stringValue))
    }

    /// Refuses an object field outside `known`, with the nearest name in `known`.
    ///
    /// - Throws: ``PolicyInputError/unknownField(path:field:known:)`` for the first such field.
    package func refuseFields(except known: [String]) throws {
        let container = try container(keyedBy: InputKey.self)
        if let stray = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw PolicyInputError.unknownField(path: JSONPath.render(codingPath), field: stray.stringValue, known: known)
        }
    }
}
