/// One part of a batch split over N hosts: the files whose relative path falls to `index` of `count` parts.
///
/// A file's part depends only on its relative path's bytes (a stable 64-bit hash, modulo `count`), as
/// rclone's `--hash-filter K/N` does: every host computes the same split alone, with no coordinator,
/// and adding or removing a file moves no other file. Two names that differ only in their Unicode
/// form are two files, as everywhere else.
package struct Partition: Sendable, Hashable, CustomStringConvertible {
    /// 0-based.
    package let index: Int
    package let count: Int

    /// The whole batch, as a run without `--partition` is.
    package static let whole = Partition(uncheckedIndex: 0, count: 1)

    /// The most parts a batch may be split into.
    package static let maxCount = 100_000

    /// The part `index` of `count`; nil unless `0 <= index < count <= maxCount`.
    package init?(index: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (0..<count).contains(index) else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    /// The part `I/N` names (digits only); nil for any other text or a part that does not exist.
    package init?(text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether this is the whole batch (one part).
    package var isWhole: Bool { count == 1 }

    /// Whether the file at `relativePath` is in this part.
    package func contains(_ relativePath: String) -> Bool {
        isWhole || Self.part(of: relativePath, among: count) == index
    }

    /// The part of `count` a relative path falls to: FNV-1a of its bytes, mixed by a 64-bit finaliser
    /// (MurmurHash3's fmix64, so that paths that differ in a last character spread over every part), modulo `count`.
    package static func part(of relativePath: String, among count: Int) -> Int {
        var hash = FNVHash.of(relativePath)
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return Int(hash % UInt64(count))
    }

    /// `I/N`, as `--partition` takes it.
    package var description: String { "\(index)/\(count)" }
}
