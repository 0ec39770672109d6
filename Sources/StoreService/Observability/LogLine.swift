extension String {
    /// This text as one log line: each line break written `\n`, so a message that holds a
    /// traceback or a multi-line reason stays one line for whatever reads the log.
    public var asLogLine: String {
        replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\n")
    }
}
