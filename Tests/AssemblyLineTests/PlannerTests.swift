@testable import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// A real directory tree in its own temp directory, removed when the test ends.
final class PlanningTree {
    private let directory: TemporaryDirectory
    /// The tree's absolute path with symlinks resolved (the temp directory may itself be a symlink).
    let root: String

    init() throws {
        directory = try TemporaryDirectory()
        root = directory.url.resolvingSymlinksInPath().path
    }

    func path(_ relative: String) -> String {
        relative.isEmpty ? root : root + "/" + relative
    }

    /// Creates a file of `bytes` bytes, and its parent directories.
    func file(_ relative: String, bytes: Int = 1) throws {
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x61, count: bytes).write(to: url)
    }

    func directory(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// Creates a symlink at `relative` whose content is `target`, exactly as given (relative or absolute).
    func symlink(_ relative: String, to target: String) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path(relative)).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
    }

    /// Plans with patterns resolved against the tree's root; `base` is relative to the root too.
    func plan(
        _ include: [String], exclude: [String] = [], base: String = "", limits: ShardLimits = ShardLimits()
    ) throws -> PlanResult {
        let planner = Planner(
            include: try include.map { try GlobPattern($0, relativeTo: root) },
            exclude: try exclude.map { try GlobPattern($0, relativeTo: root) },
            base: path(base),
            limits: limits)
        return try planner.plan()
    }
}

extension Plan {
    /// Every file's relative path, in plan order.
    var relativePaths: [String] { shards.flatMap { $0.files.map(\.relativePath) } }
}

@Suite struct PlannerTests {
    @Test func everyFileIsInExactlyOneShard() throws {
        let tree = try PlanningTree()
        var expected: [String] = []
        for directory in ["a", "b", "c/d"] {
            for index in 0..<7 {
                let name = "\(directory)/f\(index).jpg"
                try tree.file(name, bytes: 10 * (index + 1))
                expected.append(name)
            }
        }
        try tree.file("a/ignored.png")

        let plan = try tree.plan(["**/*.jpg"], limits: ShardLimits(maxFiles: 4, maxBytes: 100)).plan

        #expect(plan.relativePaths.count == expected.count)
        #expect(Set(plan.relativePaths) == Set(expected))
        #expect(plan.shards.map(\.index) == Array(plan.shards.indices))
        #expect(plan.shards.allSatisfy { !$0.files.isEmpty })
        #expect(plan.fileCount == expected.count)
    }

    @Test func orderIsByteWiseByRelativePathAndStableAcrossRuns() throws {
        let tree = try PlanningTree()
        let names = ["é.jpg", "b/z.jpg", "B.jpg", "a-b.jpg", "a/b.jpg", "a.jpg", "Z.jpg", "a0.jpg", "e.jpg"]
        for name in names.reversed() {
            try tree.file(name)
        }

        let first = try tree.plan(["**/*.jpg"], limits: ShardLimits(maxFiles: 2)).plan
        let second = try tree.plan(["**/*.jpg"], limits: ShardLimits(maxFiles: 2)).plan

        #expect(first == second)
        #expect(first.relativePaths == ["B.jpg", "Z.jpg", "a-b.jpg", "a.jpg", "a/b.jpg", "a0.jpg", "b/z.jpg", "e.jpg", "é.jpg"])
        #expect(first.shards.first?.files.first?.path == tree.path("B.jpg"))
    }

    @Test func canonicallyEquivalentNamesStayDistinctFiles() throws {
        let tree = try PlanningTree()
        let composed = "caf\u{E9}.jpg"
        let decomposed = "cafe\u{301}.jpg"
        try tree.file(composed, bytes: 1)
        try tree.file(decomposed, bytes: 2)

        let files = try tree.plan(["*.jpg"]).plan.shards.flatMap(\.files)

        #expect(files.map(\.size) == [2, 1], "decomposed (65 CC 81) sorts before composed (C3 A9)")
        #expect(files.map { Array($0.relativePath.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
    }

    @Test(arguments: [
        (PlanError.outsideBase(path: "/srv/x.jpg", base: "/srv/in", others: 2),
         "input file '/srv/x.jpg' is outside the base directory '/srv/in' (and 2 more); outputs mirror paths relative to the base"),
        (PlanError.outsideBase(path: "/srv/x.jpg", base: "/srv/in", others: 0),
         "input file '/srv/x.jpg' is outside the base directory '/srv/in'; outputs mirror paths relative to the base"),
        (PlanError.relativePattern(pattern: "in/*.jpg"),
         "glob pattern 'in/*.jpg' is relative; expected an absolute pattern or a directory to resolve it against"),
        (PlanError.relativeBase(base: "in"), "base directory 'in' is relative; expected an absolute path"),
        (PlanError.invalidLimit(name: "files", value: 0), "shard limit files is 0; expected a number of at least 1"),
        (PlanError.noIncludePatterns, "no include pattern given; expected at least one glob"),
    ])
    func errorMessagesAreOneLineAndNameThePlace(_ error: PlanError, _ message: String) {
        #expect(error.description == message)
    }

    @Test(arguments: [
        ShardLimits(maxFiles: 1),
        ShardLimits(maxFiles: 3),
        ShardLimits(maxBytes: 64),
        ShardLimits(maxFiles: 5, maxBytes: 100),
        ShardLimits(maxFiles: 100, maxBytes: 1_000),
    ])
    func budgetsAreRespectedAndShardsFilledGreedily(_ limits: ShardLimits) throws {
        let tree = try PlanningTree()
        for index in 0..<23 {
            try tree.file(String(format: "in/%02d.jpg", index), bytes: 1 + (index * 7) % 40)
        }

        let plan = try tree.plan(["in/*.jpg"], limits: limits).plan

        #expect(plan.fileCount == 23)
        let maxFiles = limits.maxFiles ?? .max
        let maxBytes = limits.maxBytes ?? .max
        for shard in plan.shards {
            #expect(shard.files.count <= maxFiles)
            #expect(shard.bytes <= maxBytes || shard.files.count == 1)
        }
        for (shard, next) in zip(plan.shards, plan.shards.dropFirst()) {
            let wouldOverflowFiles = shard.files.count + 1 > maxFiles
            let wouldOverflowBytes = shard.bytes + next.files[0].size > maxBytes
            #expect(wouldOverflowFiles || wouldOverflowBytes, "shard \(shard.index) was closed too early")
        }
    }

    @Test func aFileAboveTheByteBudgetIsAShardOfItsOwn() throws {
        let tree = try PlanningTree()
        try tree.file("a.jpg", bytes: 10)
        try tree.file("b.jpg", bytes: 500)
        try tree.file("c.jpg", bytes: 10)
        try tree.file("d.jpg", bytes: 20)

        let plan = try tree.plan(["*.jpg"], limits: ShardLimits(maxBytes: 100)).plan

        #expect(plan.shards.map { $0.files.map(\.relativePath) } == [["a.jpg"], ["b.jpg"], ["c.jpg", "d.jpg"]])
        #expect(plan.shards.map(\.bytes) == [10, 500, 30])
    }

    @Test func shardingWithoutLimitsGivesOneShardAndNoFilesGiveNone() {
        let files = (0..<5).map { PlannedFile(path: "/p/\($0)", relativePath: "\($0)", size: 1 << 40, modifiedNanoseconds: 0) }
        #expect(Plan(sharding: files, limits: ShardLimits()).shards.map(\.files) == [files])
        #expect(Plan(sharding: [], limits: ShardLimits(maxFiles: 3)).shards.isEmpty)
    }

    @Test func groupsOfFieldsAreShardedApartAndStayApartWhenCutAgain() {
        let files = (0..<5).map { PlannedFile(path: "https://cdn.test/\($0)", relativePath: "\($0)", size: 1, modifiedNanoseconds: 0) }
        let summer: [String: JSONValue] = ["album": .string("summer")], winter: [String: JSONValue] = ["album": .string("winter")]
        let plan = Plan(shardingGroups: [(fields: summer, files: Array(files[0..<3])), (fields: winter, files: Array(files[3...]))],
                        limits: ShardLimits(maxFiles: 2))
        #expect(plan.shards.map(\.files) == [Array(files[0..<2]), [files[2]], Array(files[3...])])
        #expect(plan.shards.map(\.fields) == [summer, summer, winter])

        let cut = plan.resharded(limits: ShardLimits(maxFiles: 10)) { position, _ in [0, 2, 3].contains(position) }
        #expect(cut.shards.map(\.files) == [[files[0], files[2]], [files[3]]])
        #expect(cut.shards.map(\.fields) == [summer, winter])
        #expect(cut.shards.map(\.fieldsJSON) == [#"{"album":"summer"}"#, #"{"album":"winter"}"#])
    }

    @Test func plannedFilesCarrySizeAndModificationTime() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg", bytes: 1234)
        let modified = Date(timeIntervalSince1970: 1_700_000_000.25)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: tree.path("in/a.jpg"))

        let file = try #require(try tree.plan(["in/*.jpg"], base: "in").plan.shards.first?.files.first)

        #expect(file == PlannedFile(
            path: tree.path("in/a.jpg"), relativePath: "a.jpg", size: 1234,
            modifiedNanoseconds: 1_700_000_000_250_000_000))
    }

    @Test(arguments: [
        (ShardLimits(maxFiles: 0), PlanError.invalidLimit(name: "files", value: 0)),
        (ShardLimits(maxBytes: -5), PlanError.invalidLimit(name: "max_bytes", value: -5)),
    ])
    func limitsBelowOneAreRefused(_ limits: ShardLimits, _ error: PlanError) throws {
        let tree = try PlanningTree()
        try tree.file("a.jpg")
        #expect(throws: error) { try tree.plan(["*.jpg"], limits: limits) }
    }
}
