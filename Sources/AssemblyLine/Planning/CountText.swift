/// A count with its noun, singular for one: `1 shard`, `2 shards`, `0 files`.
package enum CountText {
    /// `noun` is the singular; the plural adds `s` (every noun counted here takes it).
    package static func of(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
