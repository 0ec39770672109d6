/// Any field name or list position as a coding key: for reading objects whose fields are
/// not known in advance, and for the paths of input errors.
struct InputKey: CodingKey, Hashable {
    /// The field name, or the position as text.
    let stringValue: String
    /// The list position; nil for a field name.
    let intValue: Int?

    /// The key of the field `name`.
    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    /// The key of list position `index`.
    init(index: Int) {
        stringValue = String(index)
        intValue = index
    }

    /// The key of the field `stringValue`.
    init(stringValue: String) { self.init(stringValue) }

    /// The key of list position `intValue`.
    init(intValue: Int) { self.init(index: intValue) }
}
