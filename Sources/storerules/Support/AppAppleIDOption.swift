import CommandLineOptions

/// The one reading of `--app-apple-id` for the commands that verify signed data.
enum AppAppleIDOption {
    /// The app's Apple ID `--app-apple-id` gives, nil without it, or a usage error for text that
    /// is not an integer.
    static func parse(_ parsed: ParsedArguments) throws(UsageError) -> Int64? {
        try parsed.value("app-apple-id").map { text throws(UsageError) -> Int64 in
            guard let number = Int64(text) else { throw UsageError("--app-apple-id must be an integer, not '\(text)'") }
            return number
        }
    }
}
