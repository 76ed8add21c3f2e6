/// Parses and prints the sizes (`512KiB`, `2GiB`) and durations (`500ms`, `90s`, `1h30m`) of configuration files.
package enum ConfigUnits {
    private static let sizeUnits: [(suffix: String, factor: Int64)] = [
        ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
        ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
        ("B", 1),
    ]

    /// Units in matching order: `ms` before `m`.
    private static let durationUnits: [(suffix: String, milliseconds: Int64)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// The expected form of a size, for messages.
    package static let sizeForm = "a size such as 512KiB, 8MiB or 2GiB (or a whole number of bytes)"
    /// The expected form of a duration, for messages.
    package static let durationForm = "a duration such as 500ms, 90s, 5m, 1h or 1h30m"

    /// Bytes from `512KiB`, `10MB`, `2GiB` or a plain whole number; nil when the text is not a size.
    package static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces
        if let bytes = Int64(trimmed) { return bytes >= 0 ? bytes : nil }
        for unit in sizeUnits where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmingSpaces
            guard let value = Double(number), value >= 0, value.isFinite else { return nil }
            let bytes = value * Double(unit.factor)
            guard bytes < Double(Int64.max), bytes == bytes.rounded() else { return nil }
            return Int64(bytes)
        }
        return nil
    }

    /// A duration from one or more `<number><unit>` parts (`ms`, `s`, `m`, `h`, `d`); nil otherwise.
    package static func parseDuration(_ text: String) -> Duration? {
        var rest = Substring(text.trimmingSpaces)
        guard !rest.isEmpty else { return nil }
        var total: Int64 = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let value = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = durationUnits.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            let (product, overflow) = value.multipliedReportingOverflow(by: unit.milliseconds)
            guard !overflow else { return nil }
            total += product
        }
        return .milliseconds(total)
    }

    /// A size in the largest binary unit that divides it (`8MiB`), or bytes.
    package static func formatSize(_ bytes: Int64) -> String {
        for (suffix, factor) in [("TiB", Int64(1) << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(suffix)"
        }
        return "\(bytes)B"
    }

    /// A duration in the shortest exact form (`1h30m`, `90s` prints as `1m30s`, `500ms`).
    package static func formatDuration(_ duration: Duration) -> String {
        var milliseconds = duration.milliseconds
        if milliseconds == 0 { return "0s" }
        var text = ""
        for unit in durationUnits.sorted(by: { $0.milliseconds > $1.milliseconds })
        where milliseconds >= unit.milliseconds {
            let count = milliseconds / unit.milliseconds
            text += "\(count)\(unit.suffix)"
            milliseconds -= count * unit.milliseconds
        }
        return text
    }
}

extension Duration {
    /// The whole milliseconds of the duration.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, for `Date` arithmetic and rates.
    package var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
