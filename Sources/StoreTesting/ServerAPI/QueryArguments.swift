import AppStoreServerAPI

/// A request's decoded query items, in order; a name may repeat.
struct QueryArguments {
    var items: [(name: String, value: String)] = []

    /// Every value of `name`, in order.
    func values(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// The one value of `name`, nil when absent; given twice, it is refused with `code`.
    func single(_ name: String, invalid code: APIErrorCode.Known) throws -> String? {
        let values = values(name)
        guard values.count <= 1 else { throw ServerAPIFailure.badRequest(code, "\(name) is given \(values.count) times") }
        return values.first
    }

    /// The boolean `name`, as Apple's clients write it (`true`, `True`, `false`, `False`), or nil.
    func boolean(_ name: String, invalid code: APIErrorCode.Known) throws -> Bool? {
        guard let text = try single(name, invalid: code) else { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw ServerAPIFailure.badRequest(code, "\(name) is true or false, not \(text)")
        }
    }

    /// The milliseconds `name`, or nil.
    func milliseconds(_ name: String, invalid code: APIErrorCode.Known) throws -> Int64? {
        guard let text = try single(name, invalid: code) else { return nil }
        guard let value = Int64(text), value >= 0 else { throw ServerAPIFailure.badRequest(code, "\(name) is milliseconds since 1970, not \(text)") }
        return value
    }
}
