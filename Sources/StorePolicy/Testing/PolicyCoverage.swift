import Foundation
import LuaBridge

/// Which lines of a policy ran during a test run: counted by a line hook the host sets in
/// every state of the run (the test files' and the engine's behind `decide`), against the lines
/// that hold code, as Lua's own line information (`activelines`) gives them.
///
/// Pass one to ``PolicyTestRunner/run(file:selected:coverage:report:)`` for each file of a run.
/// Not safe to share between runs on several threads at once.
public final class PolicyCoverage: @unchecked Sendable {
    /// How one function of the policy was covered.
    public struct Function: Sendable, Equatable {
        /// Its name: its key in the policy table for a hook or a custom function, else the name
        /// it is written with (`active_pass`, `Format.price`), or `function at line N` for a
        /// function without one outside any other function.
        public var name: String
        /// Its lines.
        public var lines: ClosedRange<Int>
        /// How many of its lines that hold code ran.
        public var linesRun: Int
        /// How many of its lines hold code.
        public var linesWithCode: Int
        /// Its lines that hold code and never ran, in order.
        public var linesNotRun: [Int]
    }

    /// The policy's chunk name (`policy.lua`).
    public let chunkName: String
    let counts: LuaLineCounts
    private let definitions: [PolicyFunctionDefinition]
    private var definitionCodeLines: [Set<Int>]?
    private var codeLines = Set<Int>()
    private var mainChunkLines = Set<Int>()
    private var tableFunctions: [String: (range: ClosedRange<Int>, code: Set<Int>)] = [:]

    /// Coverage of the policy `source`.
    public init(source: PolicySource) {
        chunkName = source.chunkName
        definitions = PolicyFunctionDefinition.all(in: LuaLexer.tokens(of: source.text))
        counts = LuaLineCounts(chunkName: source.chunkName, lineCount: source.text.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    /// Every line that ran, with how many times.
    public var linesRun: [Int: Int] { counts.linesRun }

    /// The lines that can run: those Lua reports holding code, and any other that ran (a
    /// closure made during a call).
    public var linesWithCode: Set<Int> { codeLines.union(counts.linesRun.keys) }

    /// Every function of the policy, in the order they are written: the policy table's hooks and
    /// custom functions, local helpers, functions kept in other tables. A function's lines are
    /// those of its own code and of the functions written within it, and any line within it that
    /// ran outside the policy's top level. None before a state that loaded the policy was learned from.
    public var functions: [Function] {
        guard definitionCodeLines != nil else { return [] }
        var listed: [(name: String, range: ClosedRange<Int>, code: Set<Int>)] = []
        let keys = Dictionary(tableFunctions.map { ($0.value.range, $0.key) }, uniquingKeysWith: min)
        for (index, definition) in definitions.enumerated() {
            let key = keys[definition.lines]
            guard let name = key ?? definition.name ?? (isWithinAnother(index) ? nil : "function at line \(definition.lines.lowerBound)") else {
                continue
            }
            var code = codeLines(within: definition)
            if let key, let known = tableFunctions[key] { code.formUnion(known.code) }
            listed.append((name, definition.lines, code))
        }
        let written = Set(definitions.map(\.lines))
        for (name, known) in tableFunctions where !written.contains(known.range) {
            listed.append((name, known.range, known.code))
        }
        let run = Set(counts.linesRun.keys)
        return listed.map { name, range, known in
            let lines = known.union(run.filter { range.contains($0) && !mainChunkLines.contains($0) })
            return Function(name: name, lines: range, linesRun: lines.filter(run.contains).count, linesWithCode: lines.count,
                            linesNotRun: lines.subtracting(run).sorted())
        }.sorted { ($0.lines.lowerBound, $0.name) < ($1.lines.lowerBound, $1.name) }
    }

    /// The whole file: lines run and lines that hold code.
    public var total: (linesRun: Int, linesWithCode: Int) {
        (counts.linesRun.count, linesWithCode.count)
    }

    /// Learns, from a state that loaded the policy as `policy`, which lines hold code (the main
    /// chunk's, the policy table's functions', and, once, those of every function written in
    /// the source) and where each function of the policy table is.
    func learn(from state: LuaState, policy: LuaReference, source: PolicySource) {
        codeLines.formUnion(state.codeLines(reachableFrom: policy, inChunk: chunkName))
        if let chunk = try? state.compileFunction(source.text, chunkName: chunkName) {
            mainChunkLines.formUnion(state.activeLines(of: chunk))
            codeLines.formUnion(mainChunkLines)
        }
        if definitionCodeLines == nil {
            let learned = PolicyFunctionDefinition.codeLines(of: definitions, in: source)
            definitionCodeLines = learned
            for lines in learned { codeLines.formUnion(lines) }
        }
        for name in state.functionNames(in: policy) {
            guard let function = try? state.functionReference(named: name, in: policy),
                  let range = state.lineRange(of: function) else { continue }
            let code = state.codeLines(reachableFrom: function, inChunk: chunkName).filter { range.contains($0) }
            tableFunctions[name] = (range, range.count > 1 ? code.subtracting(mainChunkLines) : code)
        }
    }

    /// The lines that hold code of `definition` and of every function written within it. The
    /// line a function is defined on also runs when the policy loads; it counts for the file,
    /// and for the function only when that is all the function has.
    private func codeLines(within definition: PolicyFunctionDefinition) -> Set<Int> {
        var code = Set<Int>()
        for (index, other) in definitions.enumerated()
        where other.body.lowerBound >= definition.body.lowerBound && other.body.upperBound <= definition.body.upperBound {
            code.formUnion(definitionCodeLines?[index] ?? [])
        }
        return definition.lines.count > 1 ? code.subtracting(mainChunkLines) : code
    }

    /// Whether definition `index` is written within another function.
    private func isWithinAnother(_ index: Int) -> Bool {
        let body = definitions[index].body
        return definitions.indices.contains { other in
            other != index && definitions[other].body.lowerBound <= body.lowerBound && body.upperBound <= definitions[other].body.upperBound
        }
    }

    /// The run as an lcov tracefile for the policy at `path`: `SF`, a `DA:line,count` for
    /// each line that holds code, `LF`, `LH`, `end_of_record`.
    public func lcov(path: String) -> String {
        let run = counts.linesRun
        var text = "TN:\nSF:\(path)\n"
        for line in linesWithCode.sorted() {
            text += "DA:\(line),\(run[line] ?? 0)\n"
        }
        let total = total
        text += "LF:\(total.linesWithCode)\nLH:\(total.linesRun)\nend_of_record\n"
        return text
    }
}
