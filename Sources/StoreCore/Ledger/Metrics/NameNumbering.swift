/// Names numbered in the order they are first seen, so that a number can stand for a name in a
/// packed key: subscription metrics number the currencies and the groups they count by.
struct NameNumbering {
    private var numbers: [String: Int] = [:]
    private var names: [String]
    private var last: (name: String, number: Int)?
    /// The largest number given.
    let limit: Int
    /// What the names are, for the error past ``limit``.
    let what: String

    /// A numbering whose 0 is `zero` (a name numbered from the start), or is kept for none
    /// when nil; names are numbered from 1, up to `limit`.
    init(zero: String?, limit: Int, what: String) {
        names = [zero ?? ""]
        if let zero { numbers[zero] = 0 }
        self.limit = limit
        self.what = what
    }

    /// The number of `name`, the next one for a name not seen before.
    ///
    /// - Throws: ``LedgerError/invalidMetricsQuery(_:)`` past ``limit`` names.
    mutating func number(of name: String) throws(LedgerError) -> Int {
        if let last, last.name == name { return last.number }
        let number: Int
        if let known = numbers[name] {
            number = known
        } else {
            guard names.count <= limit else { throw .invalidMetricsQuery("the ledger has more than \(limit) \(what)") }
            number = names.count
            numbers[name] = number
            names.append(name)
        }
        last = (name, number)
        return number
    }

    /// The name numbered `number`.
    func name(of number: Int) -> String {
        names[number]
    }
}
