import AssemblyLine
import Foundation
import Testing

/// A batch's split over N parts: stable as files come and go, balanced, and by the relative path's bytes alone.
@Suite struct PartitionTests {
    static let paths = (0..<100_000).map { "photos/\($0 / 1_000)/IMG_\(String(format: "%05d", $0)).jpg" }

    @Test(arguments: [2, 4, 7, 32])
    func everyPathFallsToExactlyOnePartAndThePartsAreBalanced(count: Int) {
        let parts = (0..<count).compactMap { Partition(index: $0, count: count) }
        #expect(Self.paths.prefix(5_000).allSatisfy { path in parts.filter { $0.contains(path) }.count == 1 })
        var sizes = Array(repeating: 0, count: count)
        for path in Self.paths { sizes[Partition.part(of: path, among: count)] += 1 }
        let (smallest, largest) = (sizes.min() ?? 0, sizes.max() ?? 0)
        #expect(Double(largest) <= Double(smallest) * 1.1, "parts of \(sizes)")
    }

    @Test func addingOnePercentOfFilesMovesNoneOfTheOthers() {
        let before = Self.paths.map { Partition.part(of: $0, among: 4) }
        let added = (0..<1_000).map { "photos/new/IMG_\($0).jpg" }
        let after = (Self.paths + added).map { Partition.part(of: $0, among: 4) }
        #expect(Array(after.prefix(Self.paths.count)) == before)
        #expect(Set(after.suffix(added.count)).count == 4, "the new files spread over every part")
    }

    @Test func thePartIsThePathsBytesAlone() {
        // é precomposed and decomposed are two files; their parts are computed apart, each the same on every call.
        let composed = "caf\u{E9}.jpg", decomposed = "cafe\u{301}.jpg"
        #expect(composed == decomposed, "Swift's String equality is canonical")
        let parts = (0..<64).map { count in (Partition.part(of: composed, among: count + 1), Partition.part(of: decomposed, among: count + 1)) }
        #expect(parts.contains { $0.0 != $0.1 }, "the two byte sequences fall to different parts of some split")
        #expect(Partition.part(of: composed, among: 1_000) == Partition.part(of: String(decoding: Array(composed.utf8), as: UTF8.self), among: 1_000))
    }

    @Test func aPartOutsideItsBatchDoesNotExist() {
        #expect(Partition(index: 4, count: 4) == nil && Partition(index: -1, count: 4) == nil && Partition(index: 0, count: 0) == nil)
        #expect(Partition(index: 3, count: 4)?.description == "3/4")
        #expect(Partition.whole.contains("anything") && Partition.whole.isWhole)
    }
}
