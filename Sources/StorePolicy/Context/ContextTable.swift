import CPolicyContext

/// One of the strict tables a hook's `ctx` is made of — `ctx`, `ctx.customer` or an entry of
/// `ctx.customer.subscriptions` — as `CPolicyContext` declares it (`policy_context_fields.h`).
///
/// That declaration is the only list of these fields: the C metatables make the tables from
/// it, and the strict errors (``StrictContext``) name the nearest of its fields.
package struct ContextTable: Sendable {
    /// The kind of value a field holds, as Lua sees it.
    package enum Kind: String, Sendable {
        /// A whole number (`math.type` gives "integer"); dates are seconds since 1970.
        case integer
        /// A number with a fraction (`math.type` gives "float").
        case number
        /// A string.
        case string
        /// `true` or `false`.
        case boolean
        /// A sequence of strings.
        case stringList = "string list"
        /// Any other table: keyed by data, or one of the context's own tables.
        case table

        init(_ kind: policy_context_kind) {
            switch kind {
            case .POLICY_CONTEXT_KIND_INTEGER: self = .integer
            case .POLICY_CONTEXT_KIND_NUMBER: self = .number
            case .POLICY_CONTEXT_KIND_STRING: self = .string
            case .POLICY_CONTEXT_KIND_BOOLEAN: self = .boolean
            case .POLICY_CONTEXT_KIND_STRING_LIST: self = .stringList
            case .POLICY_CONTEXT_KIND_TABLE: self = .table
            }
        }
    }

    /// One field of a table.
    package struct Field: Sendable, Equatable {
        /// Its name in Lua.
        package let name: String
        /// The kind of value it holds.
        package let kind: Kind
        /// False for a field that is there only when the host knows its value (reading it
        /// otherwise gives nil).
        package let alwaysPresent: Bool
    }

    /// The name the table's errors give it, such as `ctx.customer`.
    package let name: String
    /// Its fields, in the order the C context fills and walks them.
    package let fields: [Field]

    /// The names of ``fields``, in their order.
    package let fieldNames: [String]

    /// `ctx`.
    package static let context = ContextTable(policy_context_ctx_table)
    /// `ctx.customer`.
    package static let customer = ContextTable(policy_context_customer_table)
    /// An entry of `ctx.customer.subscriptions`.
    package static let subscriptionEntry = ContextTable(policy_context_entry_table)

    private init(_ table: policy_context_table) {
        name = String(cString: table.name)
        fields = (0..<Int(table.field_count)).map { position in
            let field = table.fields[position]
            return Field(name: String(cString: field.name), kind: Kind(field.kind),
                         alwaysPresent: field.presence == .POLICY_CONTEXT_PRESENCE_ALWAYS)
        }
        fieldNames = fields.map(\.name)
    }
}
