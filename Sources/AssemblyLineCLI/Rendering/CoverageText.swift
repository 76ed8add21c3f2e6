import AssemblyLine

/// What `check --batch` prints of a ``BatchCoverage``: the verdict, then up to `shown` files of each problem.
enum CoverageText {
    static func text(_ coverage: BatchCoverage, shown: Int = 20) -> String {
        let (count, untaken, twice, misplaced) = (coverage.count, coverage.untaken, coverage.twice, coverage.misplaced)
        var lines = ["batch \(coverage.batch): \(CountText.of(count, "partition")) (\(coverage.found.count) with a run), "
                        + "\(CountText.of(coverage.planned, "file")) planned: "
                        + (coverage.problems == 0 ? "each taken by exactly one partition, its own"
                            : "\(untaken.count) in no partition, \(twice.count) in two or more, \(misplaced.count) in another's")]
        if !coverage.missingParts.isEmpty { lines.append("no run of partitions \(coverage.missingParts.map(String.init).joined(separator: ", "))") }
        lines += untaken.prefix(shown).map { "  in no partition: \($0) (partition \(Partition.part(of: $0, among: count)) of \(count))" }
        lines += twice.prefix(shown).map { "  in \($0.parts.map(String.init).joined(separator: " and ")): \($0.path)" }
        lines += misplaced.prefix(shown).map { "  in \($0.part), not \($0.expected): \($0.path)" }
        let more = max(0, untaken.count - shown) + max(0, twice.count - shown) + max(0, misplaced.count - shown)
        if more > 0 { lines.append("  (and \(CountText.of(more, "more file")))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
