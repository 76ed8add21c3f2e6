import Foundation

/// The report's throughput over time as inline SVG: the files of the shards that finished in each
/// stretch of the run, as a rate per minute, with both axes and a legend.
struct ThroughputChart {
    /// When each finished shard's last result was verified (seconds since the start), and its files.
    let finishes: [(seconds: Double, files: Int)]
    let span: Double

    static let width = 960.0
    static let height = 220.0
    private static let left = 64.0, right = 16.0, top = 28.0, bottom = 46.0
    /// How many stretches the run is cut into.
    static let buckets = 60

    private var plotWidth: Double { Self.width - Self.left - Self.right }
    private var plotHeight: Double { Self.height - Self.top - Self.bottom }

    /// Files per minute in each stretch.
    var rates: [Double] {
        let size = span / Double(Self.buckets)
        var counts = [Double](repeating: 0, count: Self.buckets)
        for finish in finishes {
            counts[min(Self.buckets - 1, max(0, Int(finish.seconds / size)))] += Double(finish.files)
        }
        return counts.map { $0 / size * 60 }
    }

    var svg: String {
        let rates = rates
        let peak = Self.niceCeiling(rates.max() ?? 0)
        let y = { (rate: Double) in Self.top + self.plotHeight * (1 - rate / peak) }
        let step = plotWidth / Double(Self.buckets)
        var out = "<svg class=\"throughput\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
            + "width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" role=\"img\" aria-label=\"Files done per minute over the run\">"
            + "<g class=\"legend\"><rect class=\"rate\" x=\"\(Int(Self.left))\" y=\"6\" width=\"12\" height=\"10\"/>"
            + "<text x=\"\(Int(Self.left + 16))\" y=\"15\">files done per minute (the files of each shard when its last result was verified)</text></g>"
        for (index, rate) in rates.enumerated() where rate > 0 {
            let top = y(rate)
            out += "<rect class=\"rate\" x=\"\(HTMLText.coordinate(Self.left + Double(index) * step))\" y=\"\(HTMLText.coordinate(top))\" "
                + "width=\"\(HTMLText.coordinate(max(0.5, step - 1)))\" height=\"\(HTMLText.coordinate(Self.top + plotHeight - top))\">"
                + "<title>\(String(format: "%.1f", rate)) files/min</title></rect>"
        }
        out += "<g class=\"axis\">"
        for fraction in [0.0, 0.25, 0.5, 0.75, 1] {
            let value = peak * fraction
            out += "<line x1=\"\(Int(Self.left - 4))\" y1=\"\(HTMLText.coordinate(y(value)))\" x2=\"\(Int(Self.left))\" y2=\"\(HTMLText.coordinate(y(value)))\"/>"
                + "<text x=\"\(Int(Self.left - 7))\" y=\"\(HTMLText.coordinate(y(value) + 4))\" text-anchor=\"end\">\(String(format: "%g", value))</text>"
        }
        out += "<line x1=\"\(Int(Self.left))\" y1=\"\(Int(Self.top))\" x2=\"\(Int(Self.left))\" y2=\"\(HTMLText.coordinate(Self.top + plotHeight))\"/>"
            + "<line x1=\"\(Int(Self.left))\" y1=\"\(HTMLText.coordinate(Self.top + plotHeight))\" x2=\"\(HTMLText.coordinate(Self.left + plotWidth))\" "
            + "y2=\"\(HTMLText.coordinate(Self.top + plotHeight))\"/>"
        let axis = ChartAxis(span: span)
        for tick in axis.ticks {
            let x = Self.left + tick / span * plotWidth
            out += "<line x1=\"\(HTMLText.coordinate(x))\" y1=\"\(HTMLText.coordinate(Self.top + plotHeight))\" x2=\"\(HTMLText.coordinate(x))\" "
                + "y2=\"\(HTMLText.coordinate(Self.top + plotHeight + 4))\"/><text x=\"\(HTMLText.coordinate(x))\" "
                + "y=\"\(HTMLText.coordinate(Self.top + plotHeight + 16))\" text-anchor=\"middle\">\(axis.label(tick))</text>"
        }
        out += "<text x=\"\(Int(Self.left + plotWidth / 2))\" y=\"\(Int(Self.height - 6))\" text-anchor=\"middle\">time since the run started (\(axis.unit))</text>"
            + "<text transform=\"rotate(-90)\" x=\"\(HTMLText.coordinate(-(Self.top + plotHeight / 2)))\" y=\"14\" text-anchor=\"middle\">files/min</text></g>"
        return out + "</svg>"
    }

    /// The smallest of 1, 2, 5 times a power of ten at or above `value` (1 for nothing).
    private static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        let power = pow(10, floor(log10(value)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value * 0.999_999 } ?? 10 * power
    }
}
