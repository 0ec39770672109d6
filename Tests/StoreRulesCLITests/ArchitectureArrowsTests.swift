import Foundation
import Testing

/// docs/architecture.md's "Arrows allowed" against Package.swift: each target listed there
/// depends on exactly the targets its arrow names, and every library target is listed.
@Suite struct ArchitectureArrowsTests {
    @Test("every arrow in docs/architecture.md is a dependency in Package.swift, and every dependency an arrow")
    func arrowsMatchThePackage() throws {
        let root = CommandRunner.packageRoot
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let document = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let declared = Self.dependencies(in: manifest)
        let drawn = try Self.arrows(in: document)
        #expect(!drawn.isEmpty)
        for (target, arrows) in drawn.sorted(by: { $0.key < $1.key }) {
            let dependencies = try #require(declared[target], "docs/architecture.md draws \(target), which Package.swift lacks")
            #expect(dependencies == arrows, "\(target): Package.swift has \(dependencies.sorted()), the arrows \(arrows.sorted())")
        }
        let libraries = declared.filter { !$0.value.isEmpty && !$0.key.hasPrefix("C") && $0.key != "storerules" && $0.key != "AppleLibraryCrossCheck" }
        for target in libraries.keys.sorted() {
            #expect(drawn[target] != nil, "\(target) depends on targets but has no arrow in docs/architecture.md")
        }
    }

    @Test("the libraries an embedder links for a SQLite service reach no libpq: StoreCore, SQLiteLedger, StorePolicy, StoreService and StoreHTTP")
    func serviceLinksNoPostgresClient() throws {
        let manifest = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Self.dependencies(in: manifest)
        for library in ["StoreCore", "SQLiteLedger", "StorePolicy", "StoreService", "StoreHTTP"] {
            var reached: Set<String> = []
            var frontier = [library]
            while let target = frontier.popLast() {
                for dependency in declared[target] ?? [] where reached.insert(dependency).inserted {
                    frontier.append(dependency)
                }
            }
            #expect(!reached.isEmpty, "\(library) is declared with its dependencies")
            #expect(reached.isDisjoint(with: ["CLibPQ", "PostgresLedger"]), "\(library) reaches \(reached.sorted())")
        }
    }

    /// Each target's dependencies, by name, as `.target(name:dependencies:)` and
    /// `.executableTarget(name:dependencies:)` declare them (test targets left out).
    static func dependencies(in manifest: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        var rest = Substring(manifest)
        while let start = rest.range(of: #"(\.target|\.executableTarget)\("#, options: .regularExpression) {
            rest = rest[start.upperBound...]
            let end = Self.closingParenthesis(in: rest)
            let declaration = rest[..<end]
            guard let name = Self.firstQuoted(after: "name:", in: declaration) else { continue }
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                let items = declaration[list.upperBound...].prefix { $0 != "]" }
                dependencies = Set(items.split(separator: ",").compactMap { item in
                    let trimmed = item.trimmingCharacters(in: .whitespacesAndNewlines)
                    return trimmed.hasPrefix("\"") ? String(trimmed.dropFirst().prefix { $0 != "\"" }) : nil
                })
            }
            result[name] = dependencies
        }
        return result
    }

    /// The arrows of the "Arrows allowed" block: target → dependencies, for the lines that name them.
    static func arrows(in document: String) throws -> [String: Set<String>] {
        let section = try #require(document.range(of: "## Arrows allowed"))
        let fence = try #require(document[section.upperBound...].range(of: "```\n"))
        let close = try #require(document[fence.upperBound...].range(of: "```"))
        var result: [String: Set<String>] = [:]
        for line in document[fence.upperBound..<close.lowerBound].split(separator: "\n") {
            let sides = line.components(separatedBy: "→")
            guard sides.count == 2 else { continue }
            let target = sides[0].trimmingCharacters(in: .whitespaces)
            let right = sides[1].trimmingCharacters(in: .whitespaces)
            // Prose ("the libraries above, …") and the fuzzing package stand outside the manifest's targets.
            guard !target.hasSuffix("/"), !right.hasPrefix("the ") else { continue }
            result[target] = Set(right.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return result
    }

    private static func closingParenthesis(in text: Substring) -> Substring.Index {
        var depth = 1
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }

    private static func firstQuoted(after label: String, in text: Substring) -> String? {
        guard let found = text.range(of: label) else { return nil }
        let afterLabel = text[found.upperBound...].drop { $0 != "\"" }.dropFirst()
        return String(afterLabel.prefix { $0 != "\"" })
    }
}
