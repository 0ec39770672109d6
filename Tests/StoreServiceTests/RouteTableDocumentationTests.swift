import Foundation
@testable import StoreService
import Testing

/// docs/service.md's route table is the router's: every route it serves, in its order, and no other.
@Suite struct RouteTableDocumentationTests {
    @Test func theRouteTableListsEveryRouteTheRouterServesInOrder() throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: packageRoot.appending(path: "docs/service.md"), encoding: .utf8)
        let documented = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let cell = line[line.index(line.startIndex, offsetBy: 3)..<end]
            guard let method = cell.split(separator: " ").first, ["GET", "POST", "PUT", "DELETE"].contains(method) else { return nil }
            return String(cell.prefix { $0 != "?" && $0 != "[" })
        }
        #expect(documented == HTTPRouter.table.map { "\($0.method) \($0.pattern)" })
    }
}
