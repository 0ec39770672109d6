/// An optional field of the command line's JSON that is written as `null` when absent, where
/// a synthesized `Encodable` would leave the field out.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    /// The value, or nil for `null`.
    var wrappedValue: Value?

    /// The field holding `wrappedValue`.
    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Writes the value, or `null`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}
