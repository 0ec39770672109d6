import Foundation
import LuaBridge
import StoreCore
import TextMatching

/// The experiments a loaded policy declares in `policy.experiments`, read and checked once
/// per state: their declarations, and a table of their audience functions kept in the state.
struct DeclaredExperiments {
    /// The declarations by name.
    var declarations: [String: ExperimentDeclaration]
    /// A table in the state of each audience function by experiment name.
    var audiences: LuaReference?

    /// No experiments.
    static let none = DeclaredExperiments(declarations: [:], audiences: nil)

    /// The fields a declaration may have.
    static let fields = ["variants", "traffic", "audience", "starts", "ends", "salt"]
    /// The largest weight a variant may have.
    static let maximumWeight = 1_000_000
    /// The longest name an experiment or a variant may have.
    static let maximumNameLength = 64
    /// The most experiments a policy may declare.
    static let maximumExperiments = 100
    /// The most variants an experiment may have.
    static let maximumVariants = 20

    /// Reads `policy.experiments` from the policy table `policy` in `state`.
    ///
    /// - Throws: a ``PolicyError`` of kind `invalidPolicy` naming the path of the first bad
    ///   value (`policy.experiments.NAME.variants.control`) and what was expected there.
    static func read(from policy: LuaReference, in state: LuaState, script: String) throws(PolicyError) -> DeclaredExperiments {
        do {
            return try state.withStack { stack throws in
                stack.push(policy)
                switch stack.pushField("experiments", of: stack.top) {
                case .nil: return .none
                case .table: break
                case let other: throw DeclarationError("policy.experiments", "a table of experiments by name", found: other.name)
                }
                let experiments = stack.top
                stack.pushTable()
                let audiences = stack.top
                var declarations: [String: ExperimentDeclaration] = [:]
                try stack.forEachPair(of: experiments) { key, value throws in
                    let name = try Self.name(at: key, in: stack, path: "policy.experiments")
                    let path = "policy.experiments.\(name)"
                    guard stack.type(at: value) == .table else {
                        throw DeclarationError(path, "a table with variants", found: stack.type(at: value).name)
                    }
                    guard declarations.count < maximumExperiments else {
                        throw DeclarationError("policy.experiments", "at most \(maximumExperiments) experiments", found: "more")
                    }
                    declarations[name] = try Self.declaration(named: name, at: value, in: stack, path: path)
                    if stack.pushField("audience", of: value) == .function {
                        stack.pushCopy(of: key)
                        stack.pushCopy(of: stack.top - 1)
                        stack.setPair(of: audiences)
                    }
                    stack.setTop(value)
                }
                return DeclaredExperiments(declarations: declarations,
                                           audiences: declarations.values.contains(where: \.hasAudience) ? state.reference(toValueAt: audiences) : nil)
            }
        } catch let error as DeclarationError {
            throw PolicyError(kind: .invalidPolicy, script: script, reason: error.description)
        } catch {
            throw PolicyError(kind: .invalidPolicy, script: script, reason: "\(error)")
        }
    }

    private static func declaration(named name: String, at table: Int32, in stack: LuaStack,
                                     path: String) throws -> ExperimentDeclaration {
        try stack.forEachPair(of: table) { key, _ throws in
            let field = stack.type(at: key) == .string ? stack.string(at: key) ?? "" : Self.valueText(at: key, in: stack)
            guard fields.contains(field) else {
                let hint = NearestName.nearest(to: field, in: fields).map { " (did you mean '\($0)'?)" } ?? ""
                throw DeclarationError("\(path).\(field)", "one of \(fields.joined(separator: ", "))\(hint)", found: "an unknown field")
            }
        }
        let variants = try Self.variants(of: table, in: stack, path: "\(path).variants")
        let traffic = try Self.integer("traffic", of: table, in: stack, path: path, in: 0...100) ?? 100
        let hasAudience: Bool
        switch stack.pushField("audience", of: table) {
        case .nil: hasAudience = false
        case .function: hasAudience = true
        case let other: throw DeclarationError("\(path).audience", "a function(ctx) returning whether the customer takes part", found: other.name)
        }
        stack.setTop(stack.top - 1)
        let starts = try Self.date("starts", of: table, in: stack, path: path)
        let ends = try Self.date("ends", of: table, in: stack, path: path)
        if let starts, let ends, ends <= starts {
            throw DeclarationError("\(path).ends", "a time after starts", found: ISO8601DateFormatter().string(from: ends))
        }
        let salt = try Self.text("salt", of: table, in: stack, path: path)
        return ExperimentDeclaration(name: name, variants: variants, traffic: traffic, hasAudience: hasAudience,
                                     starts: starts, ends: ends, salt: salt)
    }

    private static func variants(of table: Int32, in stack: LuaStack, path: String) throws -> [ExperimentVariantWeight] {
        guard stack.pushField("variants", of: table) == .table else {
            throw DeclarationError(path, "a table of variant names to integer weights, one named control",
                                   found: stack.type(at: stack.top).name)
        }
        defer { stack.setTop(stack.top - 1) }
        var variants: [ExperimentVariantWeight] = []
        try stack.forEachPair(of: stack.top) { key, value throws in
            let name = try Self.name(at: key, in: stack, path: path)
            guard stack.type(at: value) == .number, let weight = stack.integer(at: value),
                  stack.number(at: value) == Double(weight), (0...Int64(maximumWeight)).contains(weight) else {
                throw DeclarationError("\(path).\(name)", "a whole number from 0 to \(maximumWeight)", found: Self.valueText(at: value, in: stack))
            }
            guard variants.count < maximumVariants else {
                throw DeclarationError(path, "at most \(maximumVariants) variants", found: "more")
            }
            variants.append(ExperimentVariantWeight(name: name, weight: Int(weight)))
        }
        guard variants.count >= 2 else {
            throw DeclarationError(path, "at least two variants", found: "\(variants.count)")
        }
        guard variants.contains(where: { $0.name == ExperimentDeclaration.controlVariant }) else {
            let hint = NearestName.nearest(to: ExperimentDeclaration.controlVariant, in: variants.map(\.name))
                .map { " (is '\($0)' meant to be control?)" } ?? ""
            throw DeclarationError(path, "a variant named control, which the others are compared with\(hint)",
                                   found: variants.map(\.name).sorted().joined(separator: ", "))
        }
        guard variants.contains(where: { $0.weight > 0 }) else {
            throw DeclarationError(path, "at least one weight above 0", found: "only weights of 0")
        }
        return variants
    }

    /// An experiment's or a variant's name: an identifier, so `ctx.experiments.NAME` reads it.
    private static func name(at key: Int32, in stack: LuaStack, path: String) throws -> String {
        guard stack.type(at: key) == .string, let name = stack.string(at: key) else {
            throw DeclarationError(path, "names that are strings", found: Self.valueText(at: key, in: stack))
        }
        guard isIdentifier(name), name.utf8.count <= maximumNameLength else {
            throw DeclarationError("\(path).\(name)", "a name of letters, digits and _ (not first a digit), at most \(maximumNameLength) long",
                                   found: "'\(name)'")
        }
        return name
    }

    /// Whether `name` is a Lua identifier's spelling: ASCII letters, digits and `_`, not first a digit.
    static func isIdentifier(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) }
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }

    private static func integer(_ field: String, of table: Int32, in stack: LuaStack, path: String,
                                in range: ClosedRange<Int>) throws -> Int? {
        defer { stack.setTop(stack.top - 1) }
        guard stack.pushField(named: field, of: table) != .nil else { return nil }
        guard stack.type(at: stack.top) == .number, let value = stack.integer(at: stack.top),
              stack.number(at: stack.top) == Double(value), range.contains(Int(value)) else {
            throw DeclarationError("\(path).\(field)", "a whole number from \(range.lowerBound) to \(range.upperBound)",
                                   found: Self.valueText(at: stack.top, in: stack))
        }
        return Int(value)
    }

    private static func text(_ field: String, of table: Int32, in stack: LuaStack, path: String) throws -> String? {
        defer { stack.setTop(stack.top - 1) }
        guard stack.pushField(named: field, of: table) != .nil else { return nil }
        guard stack.type(at: stack.top) == .string, let text = stack.string(at: stack.top), !text.isEmpty, text.utf8.count <= 100,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw DeclarationError("\(path).\(field)", "a string of 1 to 100 bytes without control characters",
                                   found: Self.valueText(at: stack.top, in: stack))
        }
        return text
    }

    private static func date(_ field: String, of table: Int32, in stack: LuaStack, path: String) throws -> Date? {
        guard let text = try Self.text(field, of: table, in: stack, path: path) else { return nil }
        guard let date = ExperimentDate.parse(text) else {
            throw DeclarationError("\(path).\(field)", "a UTC date (2026-12-10) or an RFC 3339 time (2026-12-10T09:00:00Z)", found: "'\(text)'")
        }
        return date
    }

    private static func valueText(at index: Int32, in stack: LuaStack) -> String {
        switch stack.type(at: index) {
        case .string: "'\(stack.string(at: index) ?? "")'"
        case .number: stack.integer(at: index).map { "\($0)" } ?? "\(stack.number(at: index) ?? 0)"
        case .boolean: stack.bool(at: index) == true ? "true" : "false"
        case let other: other.name
        }
    }
}

/// A bad value in a declaration: where it is, what was expected, what was found.
struct DeclarationError: Error, CustomStringConvertible {
    let path: String
    let expected: String
    let found: String

    init(_ path: String, _ expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    var description: String { "\(path): expected \(expected), found \(found)" }
}
