import Foundation
import StoreCore
import StorePolicy
import StoreService
import Testing

/// The report as people read it: the text `storerules experiments report` prints and the HTML
/// page, the split check before any metric, and the exchange rates a file gives.
@Suite struct ExperimentReportRenderingTests {
    private func report(skewed: Bool = false) throws -> ExperimentReport {
        let fixture = try ExperimentReporterTests.populated()
        defer { fixture.remove() }
        if skewed {
            try fixture.expose((0..<30).map { "s\($0)" }, to: "annual", of: ExperimentReporterTests.annualFirst)
        }
        return try ExperimentReporter(ledger: fixture.ledger, declarations: ["annual_first": ExperimentReporterTests.annualFirst])
            .report(asOf: ExperimentReporterTests.asOf, options: ExperimentReportOptions(minimumCustomersPerVariant: 4))
    }

    @Test func theTextSaysTheSplitFirstThenEachHorizonsMetricsByBothTests() throws {
        let text = ExperimentReportText.render(try report())
        let lines = text.split(separator: "\n").map(String.init)
        let check = try #require(lines.firstIndex { $0.contains("Sample-ratio check: p = 1 (flagged below 0.001): the split is sound") })
        let firstMetric = try #require(lines.firstIndex { $0.contains("started a trial:") })
        #expect(check < firstMetric)
        #expect(lines.contains("  control: weight 1 (50.0 %), 4 exposed (50.0 %)"))
        #expect(lines.contains("  14 days (matured: annual 4, control 4)"))
        #expect(lines.contains("    paid: annual 50.0 %, control 50.0 %"), "\(text)")
        #expect(lines.contains("    net revenue per customer (USD, uncapped): annual 12.50, control 3.25"), "\(text)")
        #expect(lines.contains { $0.hasPrefix("      annual vs control, sequential:    ") })
        #expect(lines.contains { $0.hasPrefix("      annual vs control, fixed-horizon: ") })
    }

    @Test func aSkewedSplitIsSaidBeforeAnyFigureInTextAndHTML() throws {
        let skewed = try report(skewed: true)
        let text = ExperimentReportText.render(skewed)
        let mismatch = try #require(text.range(of: "SAMPLE-RATIO MISMATCH"))
        #expect(mismatch.upperBound < (text.range(of: "started a trial")?.lowerBound ?? text.startIndex))
        let page = ExperimentReportHTML.render(skewed, title: "skewed")
        let warning = try #require(page.range(of: "<div class=\"srm bad\""))
        let firstMetric = try #require(page.range(of: "data-metric="))
        #expect(warning.upperBound < firstMetric.lowerBound)
        #expect(page.contains("The split is broken; no figure below is to be trusted."))
        #expect(page.contains("class=\"horizon untrusted\""))
    }

    @Test func thePageDrawsEachDifferenceWithItsIntervalAndEscapesEverything() throws {
        let report = try report()
        let page = ExperimentReportHTML.render(report, title: "<script>alert('x')</script> & co")
        #expect(page.contains("<title>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</title>"))
        #expect(!page.contains("<script") && !page.contains("http-equiv") && !page.contains("<link") && !page.contains("@import"))
        #expect(page.contains("<div class=\"srm good\" data-testid=\"srm\">Split sound"))
        // Three horizons matured, each with 4 shares and 2 revenue rows for the one variant compared.
        #expect(page.components(separatedBy: "<div class=\"horizon\" data-horizon=").count - 1 == 3)
        let comparisons = (report.experiments.first?.phases.first?.horizons ?? []).flatMap(\.metrics).flatMap(\.comparisons)
        let charted = comparisons.filter { $0.relative.sequential.estimate != nil }.count
        #expect(comparisons.count == 18 && charted > 0)
        #expect(page.components(separatedBy: "<svg ").count - 1 == charted)
        #expect(page.components(separatedBy: "data-metric=").count - 1 == 18)
        #expect(page.contains("<circle") && page.contains("stroke-width=\"6\""))
    }

    @Test func ratesNameTheirCurrencyByTheRateOf1() throws {
        let rates = try ExperimentCurrencyRates(json: Data(#"{"USD": 1, "EUR": 1.08}"#.utf8))
        #expect(rates.targetCurrency == "USD" && rates.rates["EUR"] == 1.08)
        #expect(throws: ExperimentRatesError.self) { try ExperimentCurrencyRates(json: Data(#"{"EUR": 1.08}"#.utf8)) }
        #expect(throws: ExperimentRatesError.self) { try ExperimentCurrencyRates(json: Data(#"{"USD": 1, "USN": 1}"#.utf8)) }
        #expect(throws: ExperimentRatesError.self) { try ExperimentCurrencyRates(json: Data(#"{"USD": 1, "EUR": -2}"#.utf8)) }
        #expect(throws: ExperimentRatesError.self) { try ExperimentCurrencyRates(json: Data("[1]".utf8)) }
    }
}
