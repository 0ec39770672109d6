import Foundation
import Testing
import TestPrerequisites

@Suite struct TestAndCatalogCommandTests {
    @Test func policyTestsReportEachTestAndTheTotals() throws {
        let folder = try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandising(ctx, placement) return ctx.customer.status_known end
        return policy
        """, files: ["policy_test.lua": """
        function test_known_customers_see_offers()
            expect_true(policy.show_merchandising(context{ customer = { status_known = true } }, "home"))
        end

        function test_this_one_fails()
            expect_eq(true, policy.show_merchandising(context{}, "home"))
        end
        """])
        let result = try CommandRunner.run(["test", folder.path], environment: ["NO_COLOR": "1"])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "✔ policy_test.lua › test_known_customers_see_offers")
        #expect(lines.contains("✘ policy_test.lua › test_this_one_fails"))
        #expect(lines.contains("    policy_test.lua:6: expected true, got false"))
        #expect(lines.last == "1 passed, 1 failed")
    }

    @Test func aMalformedCatalogIsOneLineNamingTheFileAndPath() throws {
        let folder = try CommandRunner.policyFolder("return {}", files: ["Bad.storekit": """
        { "products": [ { "productID": 7, "type": "Consumable" } ], "settings": {}, "subscriptionGroups": [], "version": { "major": 3, "minor": 0 } }
        """])
        let result = try CommandRunner.run(["catalog", folder.appendingPathComponent("Bad.storekit").path])
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.hasPrefix("storerules catalog: Bad.storekit: products[0].productID:"), "\(result.standardError)")
    }

    @Test func catalogJSONUsesTheFieldNamesLuaSees() throws {
        let file = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit")
        let result = try CommandRunner.run(["catalog", file.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let listing = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let products = listing?["products"] as? [[String: Any]] ?? []
        #expect(products.count == 8)
        let subscription = products.compactMap { $0["subscription"] as? [String: Any] }.first
        #expect(subscription?["group_level"] != nil)
        #expect((subscription?["period"] as? [String: Any])?["unit"] as? String == "month")
        #expect((subscription?["introductory_offer"] as? [String: Any])?["payment_mode"] as? String == "free_trial")
        #expect(products.first?["display_price"] != nil)
    }
}

@Suite struct TestCommandReportTests {
    private func folder() throws -> URL {
        let catalog = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit"),
                                 encoding: .utf8)
        return try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandising(ctx, placement) return ctx.customer.status_known end
        function policy.grant(ctx, tx, product) return { { item = "seed", amount = 3 * tx.quantity } } end
        return policy
        """, files: ["Products.storekit": catalog, "policy_test.lua": """
        function test_grant_through_the_host()
            local grants, how = decide("grant", context{}, transaction{ product_id = "pellet.box", quantity = 2 })
            expect_eq({ { item = "seed", amount = 6 } }, grants)
            expect_eq("policy", how.source)
        end

        function test_grant_printing()
            print("granting <seed> & more")
        end

        function test_merchandising_fails()
            expect_eq(true, policy.show_merchandising(context{}, "home"))
        end
        """])
    }

    @Test func namePatternsPickTheTestsAndPrintsAppearUnderTheirOwnLine() throws {
        let folder = try folder()
        let result = try CommandRunner.run(["test", folder.path, "test_grant_*"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(result.standardOutput == """
        ✔ policy_test.lua › test_grant_through_the_host
        ✔ policy_test.lua › test_grant_printing
            granting <seed> & more
        2 passed, 0 failed

        """)
        let part = try CommandRunner.run(["test", folder.path, "merchandising"], environment: ["NO_COLOR": "1"])
        #expect(part.status == 1)
        #expect(part.standardOutput.hasSuffix("0 passed, 1 failed\n"))
        let none = try CommandRunner.run(["test", folder.path, "nothing_like_this"], environment: ["NO_COLOR": "1"])
        #expect(none.status != 0)
        #expect(none.standardError.contains("no test"))
    }

    @Test func jsonAndJUnitReportEveryTest() throws {
        let folder = try folder()
        let junit = folder.appending(path: "report.xml")
        let result = try CommandRunner.run(["test", folder.path, "--json", "--junit", junit.path])
        #expect(result.status == 1)
        let objects = try result.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 4)
        #expect(objects.prefix(3).map { $0["name"] as? String } == ["test_grant_through_the_host", "test_grant_printing", "test_merchandising_fails"])
        #expect(objects[1]["output"] as? [String] == ["granting <seed> & more"])
        #expect(objects[2]["failure_line"] as? Int == 12)
        #expect((objects[3]["summary"] as? [String: Any])?["failed"] as? Int == 1)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase name="test_merchandising_fails" classname="policy_test""#))
        #expect(xml.contains("<failure message="))
        #expect(xml.contains("granting &lt;seed&gt; &amp; more"))
    }
}

@Suite struct TestCommandCoverageTests {
    static let genhtml = ["/usr/bin/genhtml", "/usr/local/bin/genhtml"].first(where: FileManager.default.isExecutableFile(atPath:))

    private func coveredFolder() throws -> (folder: URL, tracefile: URL, output: CommandRunner.Result) {
        let folder = try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandising(ctx, placement)
            if ctx.customer.status_known then
                return true
            end
            return false
        end
        return policy
        """, files: ["policy_test.lua": """
        function test_known()
            expect_true(policy.show_merchandising(context{ customer = { status_known = true } }, "home"))
        end
        """])
        let tracefile = folder.appending(path: "coverage.info")
        let result = try CommandRunner.run(["test", folder.path, "--coverage", "--lcov", tracefile.path], environment: ["NO_COLOR": "1"])
        return (folder, tracefile, result)
    }

    @Test func coverageIsPrintedPerFunctionAndInAll() throws {
        let (folder, tracefile, result) = try coveredFolder()
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("show_merchandising (2–7) 2 / 3 67% not run: 6"), "\(result.standardOutput)")
        #expect(lines.contains("total 6 / 7 86%"), "\(result.standardOutput)")
        let lcov = try String(contentsOf: tracefile, encoding: .utf8)
        #expect(lcov.contains("SF:\(folder.appending(path: "policy.lua").standardizedFileURL.path)\n"))
        #expect(lcov.contains("DA:6,0\n"))
    }

    @Test func theTableListsHelpersAndFunctionsInOtherTablesWithTheLinesThatNeverRan() throws {
        let folder = try CommandRunner.policyFolder("""
        local Format = {}
        function Format.label(known)
            if known then
                return "member"
            end
            return "guest"
        end
        local function unused(ctx)
            return ctx.now
        end
        return { features = function(ctx) return { Format.label(true) } end }
        """, files: ["policy_test.lua": """
        function test_features()
            expect_eq({ "member" }, policy.features(context{}))
        end
        """])
        let result = try CommandRunner.run(["test", folder.path, "--coverage"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("Format.label (2–7) 2 / 3 67% not run: 6"), "\(result.standardOutput)")
        #expect(lines.contains("unused (8–10) 0 / 1 0% not run: 9"), "\(result.standardOutput)")
        #expect(lines.contains("features (11–11) 1 / 1 100%"), "\(result.standardOutput)")
    }

    @Test(.enabled(if: TestPrerequisite.runs(genhtml != nil), "genhtml (Debian's lcov) is not installed"))
    func theLcovFileIsOneGenhtmlAccepts() throws {
        let (folder, tracefile, _) = try coveredFolder()
        let html = folder.appending(path: "html")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.genhtml))
        process.arguments = ["--quiet", "--output-directory", html.path, tracefile.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: html.appending(path: "index.html").path))
    }
}

@Suite struct PolicyLintCommandTests {
    @Test func aMisspelledHookFailsTheTestsAndWarnsInEval() throws {
        let folder = try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandize(ctx, placement) return false end
        return policy
        """, files: ["policy_test.lua": "function test_nothing() end\n"])
        let tested = try CommandRunner.run(["test", folder.path], environment: ["NO_COLOR": "1"])
        #expect(tested.status == 1)
        #expect(tested.standardOutput.contains("✘ policy.lua › lint\n    the policy table's key 'show_merchandize' is not a hook; did you mean 'show_merchandising'?"))
        #expect(tested.standardOutput.hasSuffix("1 passed, 1 failed\n"))
        let evaluated = try CommandRunner.run(["eval", folder.path, "show_merchandising", "--arg", #""home""#])
        #expect(evaluated.status == 0)
        #expect(evaluated.standardError.contains("warning: the policy table's key 'show_merchandize' is not a hook"))
    }
}
