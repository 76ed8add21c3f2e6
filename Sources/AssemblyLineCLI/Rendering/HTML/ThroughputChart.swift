import Foundation

/// The report's throughput over time: the files of the shards that finished in each sixtieth of the run, per minute.
struct ThroughputChart {
    /// When each finished shard's last result was verified (seconds since the start), and its files.
    let finishes: [(seconds: Double, files: Int)]
    let span: Double

    /// How many stretches the run is cut into.
    static let buckets = 60

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
        let axis = ChartAxis(span: span)
        let rates = rates
        return BarChart(series: [BarChart.Series(name: "files done per minute (the files of each shard when its last result was verified)",
                                                 style: "rate", values: rates)],
                        labels: axis.ticks.map { (position: $0 / span * Double(Self.buckets), text: axis.label($0)) },
                        xTitle: "time since the run started (\(axis.unit))", yTitle: "files/min",
                        summary: "Files done per minute over the run",
                        tooltips: rates.map { String(format: "%.1f files/min", $0) }).svg
    }
}
