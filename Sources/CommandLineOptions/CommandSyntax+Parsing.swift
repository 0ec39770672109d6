import TextMatching

extension CommandSyntax {
    /// Splits `arguments`, the words after the command's name.
    ///
    /// - Throws: ``UsageError`` for the first mistake, unless help was asked for.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var firstMistake: UsageError?
        let subcommandName = subcommands.isEmpty ? nil : findSubcommandName(in: arguments)
        if let subcommandName {
            parsed.subcommand = subcommand(named: subcommandName)
            if parsed.subcommand == nil {
                firstMistake = UsageError("unknown \(commandName) command '\(subcommandName)'"
                    + (NearestName.nearest(to: subcommandName, in: subcommands.map(\.name), allowingPrefixes: true).map { "; did you mean '\($0)'?" } ?? ""))
            }
        }
        let accepted = options + (parsed.subcommand?.options ?? [])
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                parsed.positionals.append(contentsOf: remaining)
                break
            }
            if argument == "--help" || argument == "-h" {
                parsed.helpRequested = true
                continue
            }
            guard Self.looksLikeOption(argument) else {
                parsed.positionals.append(argument)
                continue
            }
            do throws(UsageError) {
                try take(argument, from: &remaining, accepted: accepted, into: &parsed)
            } catch {
                if firstMistake == nil { firstMistake = error }
            }
        }
        if let firstMistake, !parsed.helpRequested { throw firstMistake }
        return parsed
    }

    /// Records the option `argument`, taking its value from `remaining` when it needs one.
    private func take(_ argument: String, from remaining: inout ArraySlice<String>, accepted: [CommandOption],
                      into parsed: inout ParsedArguments) throws(UsageError) {
        guard argument.hasPrefix("--") else { throw UsageError("unknown option '\(argument)'") }
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        guard let option = accepted.first(where: { $0.name == name }) else {
            throw unknownOption(name, accepted: accepted, subcommand: parsed.subcommand)
        }
        guard option.takesValue else {
            guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
            parsed.flags.insert(name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if let next = remaining.first, !Self.looksLikeOption(next) {
            value = next
            remaining.removeFirst()
        } else {
            throw UsageError("option '--\(name)' needs a value (\(option.valueName))")
        }
        switch option.kind {
        case .repeatable: parsed.values[name, default: []].append(value)
        case .single, .flag: parsed.values[name] = [value]
        }
    }

    /// The error for `--name`, which `accepted` lacks.
    private func unknownOption(_ name: String, accepted: [CommandOption], subcommand: Subcommand?) -> UsageError {
        let owners = subcommands.filter { $0.options.contains { $0.name == name } }.map(\.name)
        if !owners.isEmpty {
            let given = subcommand.map { "\(commandName) \($0.name)" } ?? "\(commandName) without a command"
            return UsageError("\(given) takes no option '--\(name)'; it is an option of "
                + owners.map { "\(commandName) \($0)" }.joined(separator: ", "))
        }
        let place = subcommand.map { " for \(commandName) \($0.name)" } ?? ""
        let hint = NearestName.nearest(to: name, in: accepted.map(\.name), allowingPrefixes: true).map { "; did you mean '--\($0)'?" } ?? ""
        return UsageError("unknown option '--\(name)'\(place)\(hint)")
    }

    /// The positional that names the subcommand, found with every option's kind known.
    private func findSubcommandName(in arguments: [String]) -> String? {
        let everyOption = allOptions
        var positionals: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: remaining)
                break
            }
            if Self.looksLikeOption(argument) {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                if !argument.contains("="), everyOption.contains(where: { $0.name == name && $0.takesValue }),
                   let next = remaining.first, !Self.looksLikeOption(next) {
                    remaining.removeFirst()
                }
                continue
            }
            positionals.append(argument)
        }
        return subcommandPosition < positionals.count ? positionals[subcommandPosition] : nil
    }

    /// Whether `argument` is written as an option: a `-` followed by anything but a digit.
    static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), let second = argument.dropFirst().first else { return false }
        return !second.isNumber
    }
}
