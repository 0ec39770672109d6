import CommandLineOptions
import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// `storerules eval DIR HOOK [--input FILE|-] [--arg JSON]... | --jsonl`.
enum EvalCommand: Command {
    static let name = "eval"
    static let summary = "Run one policy hook (or a JSON-lines stream of them) and print the decision"
    static var help: String { """
    Usage: storerules eval DIR HOOK [--input FILE|-] [--arg JSON]... [--explain]
           storerules eval DIR --jsonl

    Loads DIR/policy.lua and DIR/*.storekit (if any), runs HOOK with the context read from the
    input JSON and prints {"hook", "result", "policy_version", "trace"} as JSON.

    The input is a context: {"now", "storefront", "locale", "environment", "customer": {"id",
    "seed", "status_known", "entitlements", "subscriptions", "balances", "attributes"}}. Every
    field is optional: {} is an anonymous customer whose status is unknown.

    Each --arg is one argument after ctx, as JSON. Where the hook expects a product or a group,
    a string is looked up by id in the catalog. grant takes a transaction with Apple's field
    names (as `storerules verify` prints it) and, optionally, a product id (default: the
    transaction's productId).

    A hook error, a limit or an invalid result exits with status 1 and one line on stderr
    naming the hook, the script and line, and the reason.

    --explain prints, instead of the JSON, the why of the decision: the hook's parameters with
    the values passed, the result (or the failure), and every line of policy.lua the decision
    ran, in the order it ran them.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let input = TypedOption<String>.text(
        "input", "FILE|-", help: "The context JSON (default: {}): a file, a pipe such as <(…), or - for stdin.")
    static let argument = TypedOption<LuaValue>.repeatable("arg", "JSON", help: "An argument after ctx; repeat for several.") {
        text throws(UsageError) in
        guard let value = try? JSONDecoder().decode(LuaValue.self, from: Data(text.utf8)) else { throw UsageError("--arg \(text) is not JSON") }
        return value
    }
    static let jsonlFlag = CommandOption.flag(
        "jsonl", help: #"Read one request per line from stdin: {"hook": ..., "ctx": {...}, "args": [...]}; write one response "#
            + #"per line, {"error": ...} for a bad request; never stop."#)
    static let watchFlag = CommandOption.flag(
        "watch", help: "With --jsonl, reload policy.lua and the catalog before a request when either changed; a broken edit keeps "
            + "the old policy serving and its error goes to stderr.")
    static let explainFlag = CommandOption.flag(
        "explain", help: "Print the arguments' values and the lines of policy.lua the decision ran, in order, instead of JSON.")

    static let syntax = CommandSyntax(name, options: [input.option, argument.option, jsonlFlag, watchFlag, explainFlag]
                                      + PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let folder = try parsed.positional(0, "the policy folder DIR")
        let engine = try PolicyLoader.engine(forFolder: folder, limits: try PolicyLoader.limits(parsed))
        if parsed.flag(jsonlFlag) {
            try parsed.expectPositionals(atMost: 1)
            serveLines(engine, watcher: parsed.flag(watchFlag) ? try PolicyWatcher(folder: folder, engine: engine) : nil)
            return 0
        }
        if parsed.flag(watchFlag) { throw UsageError("--watch needs --jsonl") }
        let hook = try parsed.positional(1, "the HOOK to run")
        try parsed.expectPositionals(atMost: 2)
        let contextData = try parsed.value(of: input).map(Output.read) ?? Data("{}".utf8)
        let context = try decodeContext(contextData)
        let hookArguments = try parsed.values(of: argument)
        let request = HookRequest(hook: hook, context: context, arguments: hookArguments)
        if parsed.flag(explainFlag) {
            let (policyFolder, catalog) = try PolicyLoader.open(folder)
            let explanation: DecisionExplanation
            do {
                explanation = try request.explain(source: try policyFolder.policySource(), catalog: catalog.map(PolicyCatalog.init) ?? .empty,
                                                  limits: try PolicyLoader.limits(parsed))
            } catch let error as PolicyError {
                throw CommandFailure(error.description)
            }
            Output.line(describe(explanation))
            return explanation.failure == nil ? 0 : 1
        }
        do {
            let response = try request.evaluate(with: engine)
            Output.line(try Output.json(response))
            return 0
        } catch let error as PolicyError {
            Output.error("storerules eval: " + error.description)
            return 1
        }
    }

    /// An explanation as lines: the call with its values, the outcome, then the lines run.
    static func describe(_ explanation: DecisionExplanation) -> String {
        let names = explanation.parameters.isEmpty ? ["ctx"] : explanation.parameters
        var lines = ["\(explanation.hook)(\(names.joined(separator: ", ")))"]
        for (index, value) in explanation.arguments.enumerated() {
            let name = index < names.count ? names[index] : "argument \(index + 1)"
            lines.append("  \(name) = \(value)")
        }
        if let response = explanation.response {
            let result = (try? Output.json(response.result)) ?? "?"
            lines.append("→ \(result)   (policy \(response.policyVersion))")
        } else if let failure = explanation.failure {
            lines.append("→ failed: \(failure.description)")
        }
        if explanation.lines.isEmpty {
            lines.append("no line of \(explanation.chunkName) ran" + (explanation.response?.trace?.fallbackReason.map { ": \($0)" } ?? ""))
        } else {
            lines.append("lines of \(explanation.chunkName) run, in order:")
            let width = String(explanation.lines.map(\.number).max() ?? 0).count
            for line in explanation.lines {
                lines.append("  " + String(repeating: " ", count: width - String(line.number).count) + "\(line.number)  \(line.text)")
            }
            if explanation.linesLeftOut > 0 {
                lines.append("  … and \(explanation.linesLeftOut) more")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func decodeContext(_ data: Data) throws -> PolicyContext {
        do {
            return try PolicyContext.decode(json: data)
        } catch {
            throw CommandFailure("the context is not valid: \(error)")
        }
    }

    /// One request per stdin line, one response per stdout line.
    static func serveLines(_ engine: PolicyEngine, watcher: PolicyWatcher?) {
        while let line = readLine(strippingNewline: true) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if let change = watcher?.reloadIfChanged() { Output.error(change.message) }
            let response: String
            do {
                let request = try HookRequest.decode(json: Data(line.utf8))
                response = try Output.json(try request.evaluate(with: engine))
            } catch let error as PolicyError {
                response = (try? Output.json(["error": error.description])) ?? #"{"error":"unprintable error"}"#
            } catch {
                response = (try? Output.json(["error": "bad request: \(JSONProblem.describe(error))"])) ?? #"{"error":"bad request"}"#
            }
            Output.line(response)
        }
    }
}

/// Makes decoding errors readable in one line.
enum JSONProblem {
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return text.isEmpty ? "" : String(text.drop(while: { $0 == "." })) + ": "
        }
        switch decoding {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return path(context) + (underlying ?? context.debugDescription)
        case .keyNotFound(let key, let context):
            return path(context) + "missing \"\(key.stringValue)\""
        @unknown default:
            return "\(error)"
        }
    }
}
