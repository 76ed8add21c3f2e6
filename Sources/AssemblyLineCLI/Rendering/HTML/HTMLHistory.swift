import AssemblyLine
import ConfigFormat
import Foundation

/// `report --history --format html`: the trend of a manifest's nights on one self-contained page.
///
/// A bar chart each for the files a night did (done, failed, known bad; the skipped ones, often all the
/// rest, would flatten the others and are in the table), its elapsed time, the bytes it sent and the usage
/// the service counted, a column per night in the same order; then the nights' table. The frame, policy and
/// escaping are ``HTMLPage``'s, as for a run's report.
struct HTMLHistory {
    var history: RunHistory
    /// The state directories read, for the heading.
    var stateDirectories: [String]
    var generatedAt: Date

    private var nights: [RunHistory.Night] { history.nights }

    var html: String {
        let names = Set(nights.map(\.name))
        let title = "History" + (names.count == 1 ? " of \(names.first ?? "")" : "")
        let subtitle = "\(CountText.of(nights.count, "night")) since \(RunText.time(history.since)), from "
            + stateDirectories.joined(separator: ", ")
        let lastSuccess = nights.last(where: \.isFinished).map { RunText.time($0.start) } ?? "none"
        var body = "<section id=\"summary\"><h2>Summary</h2>" + HTMLPage.figures([
            ("nights", String(nights.count)), ("finished whole", String(nights.filter(\.isFinished).count)),
            ("last finished night", lastSuccess),
            ("files done", String(total { $0.files(.done) })), ("files failed", String(total { $0.files(.failed) })),
            ("bytes up", ByteCountText.format(total(\.bytesSent))),
            ("usage", ByteCountText.format(total(\.usageBytes))
                + (total(\.assembliesWithoutUsage) > 0 ? " (\(total(\.assembliesWithoutUsage)) Assemblies did not say)" : "")),
        ]) + "</section>\n"
        guard !nights.isEmpty else {
            return HTMLPage.document(title: title, subtitle: subtitle, body: body + "<p class=\"note\">No run in this time.</p>\n",
                                     generatedAt: generatedAt)
        }
        body += section("files-trend", "Files", note: "The files each night sent that were done, failed or left out as known bad; "
                            + "the skipped ones (done before) are in the table.", chart: filesChart)
        body += section("elapsed-trend", "Elapsed", note: "From the first start to the last end of each night.", chart: elapsedChart)
        body += section("bytes-trend", "Bytes sent", note: "The file bytes each night uploaded.",
                        chart: bytesChart(\.bytesSent, name: "bytes sent", style: "up", summary: "Bytes sent each night"))
        body += section("usage-trend", "Usage", note: "The bytes_usage the completed Assemblies said they cost"
                            + " (a night marked + in the table has Assemblies that did not say).",
                        chart: bytesChart(\.usageBytes, name: "usage", style: "usage", summary: "Usage each night"))
        body += nightsTable
        return HTMLPage.document(title: title, subtitle: subtitle, body: body, generatedAt: generatedAt)
    }

    private func total<Number: BinaryInteger>(_ figure: (RunHistory.Night) -> Number) -> Number { nights.reduce(0) { $0 + figure($1) } }

    private func section(_ id: String, _ heading: String, note: String, chart: BarChart) -> String {
        "<section id=\"\(id)\"><h2>\(heading)</h2><p class=\"note\">\(HTMLText.escaped(note))</p><div class=\"chart\">\(chart.svg)</div></section>\n"
    }

    /// Each night's date under its column; with many nights, one in every few, about twelve in all.
    private var labels: [(position: Double, text: String)] {
        let every = max(1, Int((Double(nights.count) / 12).rounded(.up)))
        return nights.enumerated().compactMap { index, night in
            guard index % every == 0 else { return nil }
            let day = UTCDateTime(night.start)
            return (Double(index) + 0.5, String(format: "%02d-%02d", day.month, day.day))
        }
    }

    /// What a night's column says under a pointer: its start, its ID and its files.
    private var tooltips: [String] {
        nights.map { night in
            "\(RunText.time(night.start)) · \(night.label) (\(HistoryText.state(night))): "
                + RunReportText.counts(HistoryText.columns.map { (RunText.label($0), night.files($0)) })
        }
    }

    private var filesChart: BarChart {
        BarChart(series: [FileState.done, .failed, .knownBad].map { state in
                     BarChart.Series(name: RunText.label(state), style: state.rawValue,
                                     values: nights.map { Double($0.files(state)) })
                 },
                 labels: labels, xTitle: "night (UTC date of its start)", yTitle: "files", summary: "Files done, failed and known bad each night",
                 tooltips: tooltips)
    }

    private var elapsedChart: BarChart {
        let seconds = nights.map { $0.elapsed.timeInterval }
        let axis = ChartAxis(span: seconds.max() ?? 0)
        return BarChart(series: [BarChart.Series(name: "elapsed", style: "duration", values: seconds.map(axis.value))],
                        labels: labels, xTitle: "night (UTC date of its start)", yTitle: axis.unit, summary: "Elapsed time of each night",
                        tooltips: zip(tooltips, nights).map { "\($0) · \(DurationText.format($1.elapsed))" })
    }

    private func bytesChart(_ figure: KeyPath<RunHistory.Night, Int64>, name: String, style: String, summary: String) -> BarChart {
        let unit = ByteCountText.unit(for: nights.map { $0[keyPath: figure] }.max() ?? 0)
        return BarChart(series: [BarChart.Series(name: name, style: style, values: nights.map { Double($0[keyPath: figure]) / unit.size })],
                        labels: labels, xTitle: "night (UTC date of its start)", yTitle: unit.name, summary: summary,
                        tooltips: zip(tooltips, nights).map { "\($0) · \(name) \(ByteCountText.format($1[keyPath: figure]))" })
    }

    /// A row per night, as `report --history` prints them.
    private var nightsTable: String {
        var out = "<section id=\"nights\"><h2>Nights</h2><table class=\"nights\"><thead><tr><th>started</th><th>run or batch</th><th>state</th>"
            + HistoryText.columns.map { "<th class=\"n\">\(RunText.label($0))</th>" }.joined()
            + "<th class=\"n\">elapsed</th><th class=\"n\">bytes up</th><th class=\"n\">usage</th></tr></thead><tbody>"
        for night in nights {
            out += "<tr class=\"\(night.isFinished ? "finished" : "unfinished")\"><td>\(RunText.time(night.start))</td>"
                + "<td class=\"path\">\(HTMLText.escaped(night.label))</td><td>\(HTMLText.escaped(HistoryText.state(night)))</td>"
                + HistoryText.columns.map { "<td class=\"n\">\(night.files($0))</td>" }.joined()
                + "<td class=\"n\">\(DurationText.format(night.elapsed))</td><td class=\"n\">\(ByteCountText.format(night.bytesSent))</td>"
                + "<td class=\"n\">\(HistoryText.usage(night))</td></tr>"
        }
        return out + "</tbody></table></section>\n"
    }
}
