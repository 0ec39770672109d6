import Foundation
import LuaBridge

/// Why one decision came out as it did: the lines of the policy it ran, in order, and the
/// values of the hook's arguments — what `storerules eval --explain` prints.
public struct DecisionExplanation: Sendable {
    /// One line of the policy that ran.
    public struct Line: Sendable, Equatable {
        /// Its number in the policy.
        public var number: Int
        /// Its text.
        public var text: String
    }

    /// The hook decided.
    public var hook: String
    /// The names of the hook function's parameters (`ctx`, `plan`…), when the policy defines it.
    public var parameters: [String]
    /// The values passed: the context exactly as the hook receives it (without the catalog),
    /// then each argument after it, as JSON.
    public var arguments: [String]
    /// The decision, when the hook decided.
    public var response: HookResponse?
    /// Why the decision failed, when it did.
    public var failure: PolicyError?
    /// The policy's chunk name (`policy.lua`).
    public var chunkName: String
    /// The lines the decision ran, in the order it ran them.
    public var lines: [Line]
    /// Lines that ran after the first ``HookRequest/explanationLineLimit``, left out.
    public var linesLeftOut: Int
}

extension HookRequest {
    /// The most lines an explanation lists.
    public static let explanationLineLimit = 5_000

    /// Runs the request as ``evaluate(with:)`` does, on an engine of its own for `source` that
    /// records which lines of the policy run, and explains the decision (or its failure).
    ///
    /// - Throws: ``PolicyError`` when the policy does not load.
    public func explain(source: PolicySource, catalog: PolicyCatalog, limits: LuaLimits = .default) throws(PolicyError) -> DecisionExplanation {
        let text = source.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let recorder = LuaLineCounts(chunkName: source.chunkName, lineCount: text.count, keepingOrderOf: Self.explanationLineLimit)
        let engine = try PolicyEngine(source: source, catalog: catalog, limits: limits, lineCounts: recorder)
        let parameters = engine.parameterNames(ofHook: hook)
        recorder.reset()
        var response: HookResponse?
        var failure: PolicyError?
        do {
            response = try evaluate(with: engine)
        } catch {
            failure = error
        }
        let (numbers, leftOut) = recorder.linesInOrder
        let lines = numbers.map { number in
            DecisionExplanation.Line(number: number, text: number <= text.count ? text[number - 1] : "")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let values = [(try? encoder.encode(context(seenBy: engine))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"]
            + arguments.map { argument in (try? encoder.encode(argument)).map { String(decoding: $0, as: UTF8.self) } ?? "?" }
        return DecisionExplanation(hook: hook, parameters: parameters, arguments: values, response: response, failure: failure,
                                   chunkName: source.chunkName, lines: lines, linesLeftOut: leftOut)
    }
}

extension PolicyEngine {
    /// The parameter names of the serving policy's function `hook`, or none when it has none.
    package func parameterNames(ofHook hook: String) -> [String] {
        (try? withInstance { instance throws(PolicyError) in
            guard let function = try instance.function(named: hook) else { return [] }
            return instance.state.parameterNames(of: function)
        }) ?? []
    }
}
