import Foundation

/// A bar chart as inline SVG: bars of stacked series over a row of labels, with both axes, their units and a
/// legend; what the throughput of a run and the trend of its nights are drawn with.
struct BarChart {
    /// One stacked part of every bar.
    struct Series {
        var name: String
        /// The CSS class that colours it.
        var style: String
        var values: [Double]
    }

    var series: [Series]
    /// Labels under the bars, each at a position in bars (0 is the first bar's left edge).
    var labels: [(position: Double, text: String)]
    var xTitle: String
    var yTitle: String
    /// What the picture shows, for a screen reader.
    var summary: String
    /// Each bar's tooltip.
    var tooltips: [String] = []

    private static let width = 960.0, height = 240.0
    private static let left = 64.0, right = 16.0, top = 28.0, bottom = 46.0
    private static let widestBar = 36.0
    private var plotWidth: Double { Self.width - Self.left - Self.right }
    private var plotHeight: Double { Self.height - Self.top - Self.bottom }
    private var count: Int { series.map(\.values.count).max() ?? 0 }

    var svg: String {
        let c = HTMLText.coordinate
        let totals = (0..<count).map { index in series.reduce(0) { $0 + ($1.values.indices.contains(index) ? $1.values[index] : 0) } }
        let highest = totals.max() ?? 0
        let tick = highest > 0 ? Self.niceStep(highest / 4) : 1
        let peak = tick * max(1, (highest / tick * 0.999_999).rounded(.up))
        let y = { (value: Double) in Self.top + self.plotHeight * (1 - value / peak) }
        let step = plotWidth / Double(max(1, count))
        // A few bars stay bars, centred in their place, not blocks as wide as the chart.
        let barWidth = min(max(0.5, step - 1), Self.widestBar)
        var out = "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
            + "width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" role=\"img\" aria-label=\"\(HTMLText.escaped(summary))\"><g class=\"legend\">"
        var cursor = Self.left
        for part in series {
            out += "<rect class=\"\(part.style)\" x=\"\(c(cursor))\" y=\"6\" width=\"12\" height=\"10\"/>"
                + "<text x=\"\(c(cursor + 16))\" y=\"15\">\(HTMLText.escaped(part.name))</text>"
            cursor += 24 + Double(part.name.count) * 6.5
        }
        out += "</g>"
        // A column for every bar, drawn or not: one per point of the series in the DOM.
        for index in 0..<count {
            var base = 0.0
            out += "<g class=\"column\">" + (tooltips.indices.contains(index) ? "<title>\(HTMLText.escaped(tooltips[index]))</title>" : "")
            for part in series where part.values.indices.contains(index) && part.values[index] > 0 {
                let top = y(base + part.values[index])
                out += "<rect class=\"\(part.style)\" x=\"\(c(Self.left + (Double(index) + 0.5) * step - barWidth / 2))\" y=\"\(c(top))\" "
                    + "width=\"\(c(barWidth))\" height=\"\(c(y(base) - top))\"/>"
                base += part.values[index]
            }
            out += "</g>"
        }
        out += "<g class=\"axis\">"
        for value in stride(from: 0, through: peak * 1.000_001, by: tick) {
            out += "<line x1=\"\(Int(Self.left - 4))\" y1=\"\(c(y(value)))\" x2=\"\(Int(Self.left))\" y2=\"\(c(y(value)))\"/>"
                + "<text x=\"\(Int(Self.left - 7))\" y=\"\(c(y(value) + 4))\" text-anchor=\"end\">\(String(format: "%g", value))</text>"
        }
        let bottom = Self.top + plotHeight
        out += "<line x1=\"\(Int(Self.left))\" y1=\"\(Int(Self.top))\" x2=\"\(Int(Self.left))\" y2=\"\(c(bottom))\"/>"
            + "<line x1=\"\(Int(Self.left))\" y1=\"\(c(bottom))\" x2=\"\(c(Self.left + plotWidth))\" y2=\"\(c(bottom))\"/>"
        for label in labels {
            let x = Self.left + label.position * step
            out += "<line x1=\"\(c(x))\" y1=\"\(c(bottom))\" x2=\"\(c(x))\" y2=\"\(c(bottom + 4))\"/>"
                + "<text x=\"\(c(x))\" y=\"\(c(bottom + 16))\" text-anchor=\"middle\">\(HTMLText.escaped(label.text))</text>"
        }
        out += "<text x=\"\(Int(Self.left + plotWidth / 2))\" y=\"\(Int(Self.height - 6))\" text-anchor=\"middle\">\(HTMLText.escaped(xTitle))</text>"
            + "<text transform=\"rotate(-90)\" x=\"\(c(-(Self.top + plotHeight / 2)))\" y=\"14\" text-anchor=\"middle\">\(HTMLText.escaped(yTitle))</text></g>"
        return out + "</svg>"
    }

    /// The smallest of 1, 2, 5 times a power of ten at or above `value`: the step between the value axis' ticks.
    private static func niceStep(_ value: Double) -> Double {
        let power = pow(10, floor(log10(value)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value * 0.999_999 } ?? 10 * power
    }
}
