import Foundation

/// The report's timeline as inline SVG: a bar per shard (or group of shards) split into its attempts' phases.
///
/// Each bar is a `<g class="bar">` holding a `<rect>` per phase segment, a marker coloured by how the shard
/// ended, a cross where an attempt failed and the count of retries; `<title>`s name every part for a
/// pointer hovering, and the legend and the time axis are drawn in the same picture.
struct TimelineChart {
    let timeline: ReportTimeline

    static let width = 960.0
    private static let labelWidth = 96.0
    private static let retryWidth = 44.0
    private static let top = 34.0
    private var rowHeight: Double { timeline.rows.count > 100 ? 9 : 16 }
    private var plotWidth: Double { Self.width - Self.labelWidth - Self.retryWidth }

    private func x(_ seconds: Double) -> Double {
        Self.labelWidth + seconds / timeline.span * plotWidth
    }

    var svg: String {
        let height = Self.top + Double(timeline.rows.count) * rowHeight + 34
        var out = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" "
            + "width=\"\(Int(Self.width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"Timeline of the shards\">"
        out += legend
        for (position, row) in timeline.rows.enumerated() {
            out += bar(row, y: Self.top + Double(position) * rowHeight)
        }
        out += axis(y: Self.top + Double(timeline.rows.count) * rowHeight)
        return out + "</svg>"
    }

    private var legend: String {
        var out = "<g class=\"legend\">"
        var cursor = Self.labelWidth
        for phase in ReportTimeline.Phase.allCases {
            out += "<rect class=\"phase \(phase.rawValue)\" x=\"\(HTMLText.coordinate(cursor))\" y=\"6\" width=\"12\" height=\"10\"/>"
                + "<text x=\"\(HTMLText.coordinate(cursor + 16))\" y=\"15\">\(phase.rawValue)</text>"
            cursor += 90
        }
        for outcome in ReportTimeline.Outcome.allCases {
            out += "<rect class=\"outcome \(outcome.rawValue)\" x=\"\(HTMLText.coordinate(cursor))\" y=\"6\" width=\"6\" height=\"10\"/>"
                + "<text x=\"\(HTMLText.coordinate(cursor + 10))\" y=\"15\">\(outcome.rawValue)</text>"
            cursor += 84
        }
        out += "<text x=\"\(HTMLText.coordinate(cursor))\" y=\"15\" class=\"failmark\">× failed attempt</text>"
        return out + "<text x=\"\(Int(Self.width - 4))\" y=\"15\" text-anchor=\"end\">↻ retries</text></g>"
    }

    private func bar(_ row: ReportTimeline.Row, y: Double) -> String {
        let c = HTMLText.coordinate
        let height = rowHeight - 3
        let baseline = c(y + height - 1)
        var out = "<g class=\"bar \(row.outcome.rawValue)\" data-shards=\"\(row.shardCount)\"><title>\(HTMLText.escaped(title(of: row)))</title>"
        out += "<text class=\"label\" x=\"\(c(Self.labelWidth - 12))\" y=\"\(baseline)\" text-anchor=\"end\">\(HTMLText.escaped(row.label))</text>"
        out += "<rect class=\"outcome \(row.outcome.rawValue)\" x=\"\(c(Self.labelWidth - 8))\" y=\"\(c(y))\" width=\"5\" height=\"\(c(height))\"/>"
        for segment in row.segments {
            let left = x(segment.start)
            let width = max(0.5, x(segment.end) - left)
            let classes = "phase \(segment.phase.rawValue)" + (segment.failedAttempt ? " failed-attempt" : "")
            let attempt = row.shardCount == 1 ? "attempt \(segment.attempt) " : ""
            let seconds = String(format: "%.2f", segment.end - segment.start)
            out += "<rect class=\"\(classes)\" x=\"\(c(left))\" y=\"\(c(y))\" width=\"\(c(width))\" height=\"\(c(height))\">"
            out += "<title>\(attempt)\(segment.phase.rawValue) \(seconds) s</title></rect>"
        }
        for failure in row.failures {
            out += "<text class=\"failmark\" x=\"\(c(x(failure)))\" y=\"\(baseline)\" text-anchor=\"middle\">×</text>"
        }
        if row.retries > 0 {
            out += "<text class=\"retries\" x=\"\(Int(Self.width - 4))\" y=\"\(baseline)\" text-anchor=\"end\">↻\(row.retries)</text>"
        }
        return out + "</g>"
    }

    /// What a bar's tooltip says: its shard (or shards, by outcome), how it ended and its retries.
    private func title(of row: ReportTimeline.Row) -> String {
        var text = "shard \(row.label): \(row.outcome.rawValue)"
        if row.shardCount > 1 {
            let counts = ReportTimeline.Outcome.allCases.compactMap { outcome in row.outcomes[outcome].map { "\($0) \(outcome.rawValue)" } }
            text = "shards \(row.label): " + counts.joined(separator: ", ")
        }
        return text + (row.retries > 0 ? ", \(row.retries) retries" : "")
    }

    private func axis(y: Double) -> String {
        let scale = ChartAxis(span: timeline.span)
        var out = "<g class=\"axis\"><line x1=\"\(Int(Self.labelWidth))\" y1=\"\(HTMLText.coordinate(y + 2))\" "
            + "x2=\"\(HTMLText.coordinate(Self.labelWidth + plotWidth))\" y2=\"\(HTMLText.coordinate(y + 2))\"/>"
        for tick in scale.ticks {
            out += "<line x1=\"\(HTMLText.coordinate(x(tick)))\" y1=\"\(HTMLText.coordinate(y + 2))\" x2=\"\(HTMLText.coordinate(x(tick)))\" "
                + "y2=\"\(HTMLText.coordinate(y + 6))\"/><text x=\"\(HTMLText.coordinate(x(tick)))\" y=\"\(HTMLText.coordinate(y + 18))\" "
                + "text-anchor=\"middle\">\(scale.label(tick))</text>"
        }
        return out + "<text x=\"\(Int(Self.labelWidth + plotWidth / 2))\" y=\"\(HTMLText.coordinate(y + 31))\" text-anchor=\"middle\">"
            + "time since the run started (\(scale.unit))</text></g>"
    }
}
