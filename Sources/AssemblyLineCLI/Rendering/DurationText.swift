import ConfigFormat

/// Durations for people, as measured (a run's or a shard's time, an ETA): `0.4s`, `9.9s`, `42s`, `1m02s`, `1h02m`.
///
/// The rule (README): tenths of a second under 10 s, whole seconds under a minute, minutes and
/// two-digit seconds under an hour, hours and two-digit minutes beyond, each rounded to the nearest unit
/// shown. A duration someone wrote (a manifest's value, `--max-duration`) is echoed exactly instead, in the
/// form config takes (`ConfigUnits.formatDuration`: `1h30m`, `500ms`).
enum DurationText {
    static func format(_ duration: Duration) -> String {
        let milliseconds = max(0, duration.milliseconds)
        let tenths = (milliseconds + 50) / 100
        if tenths < 100 { return "\(tenths / 10).\(tenths % 10)s" }
        let seconds = (milliseconds + 500) / 1_000
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3_600 { return "\(seconds / 60)m" + twoDigits(seconds % 60) + "s" }
        let minutes = (milliseconds + 30_000) / 60_000
        return "\(minutes / 60)h" + twoDigits(minutes % 60) + "m"
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
