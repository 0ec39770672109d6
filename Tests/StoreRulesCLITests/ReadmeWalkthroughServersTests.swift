import Foundation
import Testing

/// The README's walkthroughs read in order by a new operator: each one that starts servers after
/// another did says to stop the earlier servers first, and where the local store's purchase
/// prints its "Granted …" line next to a service, the text says that line is the store's own
/// ledger, not the service's.
@Suite struct ReadmeWalkthroughServersTests {
    /// A `## ` section of the README: its heading, its prose (outside shell blocks, one line) and
    /// its shell blocks.
    struct Section {
        let heading: String
        let prose: String
        let shells: [String]
        /// The text before its first shell block, one line.
        let lead: String
    }

    static func sections() throws -> [Section] {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appending(path: "README.md"), encoding: .utf8)
        return readme.components(separatedBy: "\n## ").dropFirst().map { text in
            let body = Substring(text)
            let shells = ReadmeServiceWalkthroughTests.shellBlocks(in: body).map(String.init)
            var prose = text
            for shell in shells { prose = prose.replacingOccurrences(of: shell, with: "") }
            let lead = text.range(of: "```sh\n").map { String(text[..<$0.lowerBound]) } ?? text
            return Section(heading: String(text.prefix { $0 != "\n" }), prose: prose.replacingOccurrences(of: "\n", with: " "),
                           shells: shells, lead: lead.replacingOccurrences(of: "\n", with: " "))
        }
    }

    @Test("every walkthrough that starts servers after an earlier one says to stop the earlier servers first")
    func laterWalkthroughsStopEarlierServers() throws {
        let serving = try Self.sections().filter { $0.shells.contains { $0.contains("--listen") } }
        try #require(serving.count >= 3, "\(serving.map(\.heading))")
        for section in serving.dropFirst() {
            let lead = section.lead.lowercased()
            #expect(lead.contains("stop") && lead.contains("ctrl-c"), "\(section.heading): \(section.lead)")
        }
    }

    @Test("where a store purchase runs beside a service, the text says its Granted line is the store's own ledger")
    func grantedLineNamesTheStoresLedger() throws {
        let sections = try Self.sections().filter { section in
            section.shells.contains { $0.contains("$store purchase") } && section.shells.contains { $0.contains("storerules serve") }
        }
        try #require(sections.count >= 2, "\(sections.map(\.heading))")
        for section in sections {
            #expect(section.prose.contains("`Granted 5 pellet.`") && section.prose.contains("own ledger")
                    && section.prose.contains("`store.sqlite`") && section.prose.contains("`service.sqlite`"), "\(section.heading)")
        }
    }
}
