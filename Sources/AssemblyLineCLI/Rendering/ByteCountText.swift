/// Byte counts for people: `512 B`, `401.2 KiB`, `1.5 GiB`.
enum ByteCountText {
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]

    static func format(_ bytes: Int64) -> String {
        let unit = unit(for: bytes)
        if unit.size == 1 { return "\(bytes) B" }
        return "\((Double(bytes) / unit.size * 10).rounded() / 10) \(unit.name)"
    }

    /// The unit `bytes` reads best in (the largest power of 1024 at or under it), and the bytes it holds.
    static func unit(for bytes: Int64) -> (name: String, size: Double) {
        var size = 1.0, unit = 0
        while abs(Double(bytes)) >= size * 1024, unit < units.count - 1 {
            size *= 1024
            unit += 1
        }
        return (units[unit], size)
    }
}
