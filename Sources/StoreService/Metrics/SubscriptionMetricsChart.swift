import StoreCore

/// A chart of figures per interval drawn as an inline SVG: lines (each series a polyline,
/// gaps where a figure is undefined) or bars stacked up and down from zero, with the first and
/// last interval's labels and the scale's top and bottom.
enum SubscriptionMetricsChart {
    /// One series: its name, a colour and a figure per interval (nil where undefined).
    struct Series {
        var name: String
        var color: String
        var values: [Double?]
    }

    static let width = 640.0
    static let height = 180.0
    private static let left = 56.0, right = 8.0, top = 10.0, bottom = 24.0

    /// A line chart of `series` over intervals labelled `labels`, its values written with `format`.
    static func lines(_ series: [Series], labels: [String], title: String, format: (Double) -> String) -> String {
        let values = series.flatMap { $0.values.compactMap { $0 } }
        let low = min(0, values.min() ?? 0), high = max(values.max() ?? 1, low + 1e-9)
        var body = ""
        for line in series {
            var path = ""
            for (index, value) in line.values.enumerated() {
                guard let value else { continue }
                let command = index > 0 && line.values[index - 1] != nil ? "L" : "M"
                path += "\(command)\(point(x(index, count: labels.count))) \(point(y(value, low: low, high: high))) "
            }
            if !path.isEmpty {
                body += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
            }
        }
        return frame(body, series: series, labels: labels, title: title, low: low, high: high, format: format)
    }

    /// Bars of `series` stacked per interval: positive values up from zero, negative down.
    static func bars(_ series: [Series], labels: [String], title: String, format: (Double) -> String) -> String {
        let count = labels.count
        let ups = (0..<count).map { index in series.reduce(0.0) { $0 + max(0, $1.values[index] ?? 0) } }
        let downs = (0..<count).map { index in series.reduce(0.0) { $0 + min(0, $1.values[index] ?? 0) } }
        let low = min(0, downs.min() ?? 0), high = max(ups.max() ?? 1, low + 1e-9)
        let barWidth = max(1, (width - left - right) / Double(max(count, 1)) * 0.7)
        var body = ""
        for index in 0..<count {
            var up = 0.0, down = 0.0
            for bar in series {
                guard let value = bar.values[index], value != 0 else { continue }
                let from = value > 0 ? up : down
                let to = from + value
                if value > 0 { up = to } else { down = to }
                let y0 = y(max(from, to), low: low, high: high), y1 = y(min(from, to), low: low, high: high)
                body += "<rect x=\"\(point(x(index, count: count) - barWidth / 2))\" y=\"\(point(y0))\" width=\"\(point(barWidth))\" "
                    + "height=\"\(point(max(0.5, y1 - y0)))\" fill=\"\(bar.color)\"/>"
            }
        }
        return frame(body, series: series, labels: labels, title: title, low: low, high: high, format: format)
    }

    private static func frame(_ body: String, series: [Series], labels: [String], title: String, low: Double, high: Double,
                              format: (Double) -> String) -> String {
        let zero = y(0, low: low, high: high)
        var svg = "<figure><figcaption>\(HTMLText.escape(title))</figcaption>"
            + "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(title))\">"
            + "<line x1=\"\(left)\" y1=\"\(point(zero))\" x2=\"\(width - right)\" y2=\"\(point(zero))\" stroke=\"#c7c7cc\"/>"
            + axisLabel(format(high), x: left - 4, y: top + 4, anchor: "end")
            + axisLabel(format(low), x: left - 4, y: height - bottom, anchor: "end")
        if let first = labels.first, let last = labels.last {
            svg += axisLabel(first, x: left, y: height - 6, anchor: "start") + axisLabel(last, x: width - right, y: height - 6, anchor: "end")
        }
        svg += body + "</svg><ul class=\"legend\">"
        for line in series {
            svg += "<li><svg width=\"10\" height=\"10\" aria-hidden=\"true\"><rect width=\"10\" height=\"10\" fill=\"\(line.color)\"/></svg> "
                + "\(HTMLText.escape(line.name))</li>"
        }
        return svg + "</ul></figure>"
    }

    private static func axisLabel(_ text: String, x: Double, y: Double, anchor: String) -> String {
        "<text x=\"\(point(x))\" y=\"\(point(y))\" text-anchor=\"\(anchor)\" font-size=\"11\" fill=\"#636366\">\(HTMLText.escape(text))</text>"
    }

    private static func x(_ index: Int, count: Int) -> Double {
        let span = width - left - right
        return count <= 1 ? left + span / 2 : left + span * (Double(index) + 0.5) / Double(count)
    }

    private static func y(_ value: Double, low: Double, high: Double) -> Double {
        top + (high - value) / (high - low) * (height - top - bottom)
    }

    private static func point(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
