import Foundation
import LuaBridge

/// Which lines of a policy ran during a test run: counted by a line hook the host sets in
/// every state of the run (the test files' and the engine's behind `decide`), against the lines
/// that hold code, as Lua's own line information (`activelines`) gives them.
///
/// Pass one to ``PolicyTestRunner/run(file:selected:coverage:report:)`` for each file of a run.
/// Not safe to share between runs on several threads at once.
public final class PolicyCoverage: @unchecked Sendable {
    /// How one function of the policy table was covered.
    public struct Function: Sendable, Equatable {
        /// Its key in the policy table: a hook, or a custom function.
        public var name: String
        /// Its lines.
        public var lines: ClosedRange<Int>
        /// How many of its lines that hold code ran.
        public var linesRun: Int
        /// How many of its lines hold code.
        public var linesWithCode: Int
    }

    /// The policy's chunk name (`policy.lua`).
    public let chunkName: String
    let counts: LuaLineCounts
    private var codeLines = Set<Int>()
    private var mainChunkLines = Set<Int>()
    private var functionLines: [String: (range: ClosedRange<Int>, code: Set<Int>)] = [:]

    /// Coverage of the policy `source`.
    public init(source: PolicySource) {
        chunkName = source.chunkName
        counts = LuaLineCounts(chunkName: source.chunkName, lineCount: source.text.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    /// Every line that ran, with how many times.
    public var linesRun: [Int: Int] { counts.linesRun }

    /// The lines that can run: those Lua reports holding code, and any other that ran (a
    /// closure made during a call).
    public var linesWithCode: Set<Int> { codeLines.union(counts.linesRun.keys) }

    /// The policy table's functions, in the order they are written. A function's lines are
    /// those of its own code and of the functions it reaches within its lines, and any line
    /// within them that ran outside the policy's top level (a closure made during a call).
    public var functions: [Function] {
        let run = Set(counts.linesRun.keys)
        return functionLines.map { name, known in
            let lines = known.code.union(run.filter { known.range.contains($0) && !mainChunkLines.contains($0) })
            return Function(name: name, lines: known.range, linesRun: lines.filter(run.contains).count, linesWithCode: lines.count)
        }.sorted { ($0.lines.lowerBound, $0.name) < ($1.lines.lowerBound, $1.name) }
    }

    /// The whole file: lines run and lines that hold code.
    public var total: (linesRun: Int, linesWithCode: Int) {
        (counts.linesRun.count, linesWithCode.count)
    }

    /// Learns, from a state that loaded the policy as `policy`, which lines hold code and where
    /// each function of the policy table is.
    func learn(from state: LuaState, policy: LuaReference, source: PolicySource) {
        codeLines.formUnion(state.codeLines(reachableFrom: policy, inChunk: chunkName))
        if let chunk = try? state.compileFunction(source.text, chunkName: chunkName) {
            mainChunkLines.formUnion(state.activeLines(of: chunk))
            codeLines.formUnion(mainChunkLines)
        }
        for name in state.functionNames(in: policy) {
            guard let function = try? state.functionReference(named: name, in: policy),
                  let range = state.lineRange(of: function) else { continue }
            // The line a function is defined on also runs when the policy loads; it counts for
            // the file, and for the function only when that is all the function has.
            let code = state.codeLines(reachableFrom: function, inChunk: chunkName).filter { range.contains($0) }
            functionLines[name] = (range, range.count > 1 ? code.subtracting(mainChunkLines) : code)
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
