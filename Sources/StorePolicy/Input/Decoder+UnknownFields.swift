extension Decoder {
    /// The fields of an object whose every field `Key`'s cases name: a field they do not name
    /// is refused, with the nearest name they do, before anything is read. The strict inputs
    /// read their fields through this, under Foundation's `JSONDecoder` as under StoreRules' own.
    ///
    /// - Throws: ``PolicyInputError/unknownField(path:field:known:)`` for the first unknown
    ///   field; the decoder's error when the value is not an object.
    package func strictContainer<Key: CodingKey & CaseIterable>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try refuseFields(except: Key.allCases.map(\.stringValue))
        return try container(keyedBy: type)
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
