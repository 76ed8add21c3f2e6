/// Byte counts for people: `512 B`, `401.2 KiB`, `1.5 GiB`.
enum ByteCountText {
    static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(bytes)
        var unit = 0
        while abs(value) >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
