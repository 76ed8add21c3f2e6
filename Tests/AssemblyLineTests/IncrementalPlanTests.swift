import AssemblyLine
import Foundation
import TestSupport
import Testing

@Suite struct IncrementalPlanTests {
    static let files = (0..<5).map { PlannedFile(path: "/in/\($0).jpg", relativePath: "\($0).jpg", size: 10, modifiedNanoseconds: Int64($0)) }
    static let limits = ShardLimits(maxFiles: 2)
    static let plan = Plan(sharding: files, limits: limits)
    static let sizesOnly = OutputCheck(checksums: nil)

    @Test func filesDoneBeforeAreSkippedAndTheRestReSharded() async throws {
        let done = Self.entries([(Self.files[0], []), (Self.files[3], [])])
        let incremental = try await Self.read(Self.plan, done: done, limits: Self.limits)
        #expect(incremental.skipped(from: Self.plan) == [Self.files[0], Self.files[3]] && incremental.redone.isEmpty)
        #expect(incremental.plan.shards.map { $0.files.map(\.relativePath) } == [["1.jpg", "2.jpg"], ["4.jpg"]])
    }

    @Test func aNightOfThousandsChecksOnEveryCoreAndKeepsPlanOrder() async throws {
        let directory = try TemporaryDirectory()
        let files = (0..<3_001).map { PlannedFile(path: "/in/\($0).jpg", relativePath: String(format: "%05d.jpg", $0), size: 1, modifiedNanoseconds: 0) }
        var done: [FileIdentity: CompletedFile] = [:]
        for (index, file) in files.enumerated() where index % 3 != 2 {
            // Every seventh output is gone; files 2, 5, 8... were never done.
            if index % 7 != 0 { try directory.write("\(index).out", "x") }
            done[FileIdentity(file)] = CompletedFile(entry: Int64(index), outputs: [RecordedOutput(path: directory.file("\(index).out"), size: 1, md5: nil)])
        }

        let plan = Plan(sharding: files, limits: ShardLimits(maxFiles: 50))
        let incremental = try await Self.read(plan, done: done, limits: ShardLimits(maxFiles: 50), pageSize: 100)

        let indices = files.indices
        #expect(incremental.skipped(from: plan) == indices.filter { $0 % 3 != 2 && $0 % 7 != 0 }.map { files[$0] })
        #expect(incremental.redone.map(\.file) == indices.filter { $0 % 3 != 2 && $0 % 7 == 0 }.map { files[$0] })
        #expect(incremental.plan.shards.flatMap(\.files) == indices.filter { $0 % 3 == 2 || $0 % 7 == 0 }.map { files[$0] }, "in plan order")
        #expect(incremental.review == DoneIndexReview(missed: indices.filter { $0 % 3 != 2 && $0 % 7 == 0 }.map(Int64.init)))
    }

    @Test func aFileChangedSinceIsNotDone() async throws {
        let touched = PlannedFile(path: "/in/0.jpg", relativePath: "0.jpg", size: 10, modifiedNanoseconds: 99)
        let incremental = try await Self.read(Self.plan, done: Self.entries([(touched, [])]), limits: Self.limits)
        #expect(incremental.skippedCount == 0)
        #expect(incremental.plan == Self.plan)
        #expect(incremental.review == DoneIndexReview(missed: [0]), "the entry of the file as it was is missed")
    }

    @Test func aFileWhoseOutputsAreMissingOrResizedRunsAgain() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("kept.jpg", "12345")
        try directory.write("shrunk.jpg", "123")
        let kept = RecordedOutput(path: directory.file("kept.jpg"), size: 5, md5: nil)
        let unsized = RecordedOutput(path: directory.file("shrunk.jpg"), size: nil, md5: nil)
        let shrunk = RecordedOutput(path: directory.file("shrunk.jpg"), size: 5, md5: nil)
        let gone = RecordedOutput(path: directory.file("gone.jpg"), size: 5, md5: nil)
        let done = Self.entries([(Self.files[0], [kept, unsized]), (Self.files[1], [kept, shrunk]), (Self.files[2], [gone]),
                                 (Self.files[3], [RecordedOutput(path: directory.path, size: nil, md5: nil)])])

        let incremental = try await Self.read(Self.plan, done: done, limits: Self.limits)

        #expect(incremental.skipped(from: Self.plan) == [Self.files[0]])
        #expect(incremental.redone.map(\.file) == [Self.files[1], Self.files[2], Self.files[3]])
        #expect(incremental.redone.map { $0.findings.map(\.problem) } == [[.resized(recorded: 5, found: 3)], [.missing], [.missing]])
        #expect(incremental.plan.shards.flatMap(\.files) == Array(Self.files.dropFirst()))
        let findings = Self.sizesOnly.findings([kept, shrunk, gone])
        #expect(findings.map(\.problem) == [.resized(recorded: 5, found: 3), .missing])
        #expect(findings.map(\.problem.kind) == ["changed", "missing"])
    }

    @Test func onlyANightWithChecksumsReadsTheOutputsMD5sAndFindsAnAlteredOne() async throws {
        // Given: a done file whose output is of its recorded size, with another MD5 than recorded
        let directory = try TemporaryDirectory()
        try directory.write("0.out", "x")
        let done = Self.entries([(Self.files[0], [RecordedOutput(path: directory.file("0.out"), size: 1, md5: "recorded")])])
        let sets = [DoneIndexSet(jobKey: "job", recipeFingerprint: "r", role: .own)]
        let plain = DoneIndexFake(sets: ["job": done]), summed = DoneIndexFake(sets: ["job": done])

        // When: a night reads it by sizes, and one with checksums
        let sizes = try await IncrementalPlan.reading(Self.plan, sets: sets, from: plain, check: Self.sizesOnly, limits: Self.limits)
        let checksums = try await IncrementalPlan.reading(Self.plan, sets: sets, from: summed, check: OutputCheck(checksums: FoundDigester()),
                                                          limits: Self.limits)

        // Then: only the second asked for the MD5s, and it runs the file again
        #expect(plain.md5sAsked.all == [false] && summed.md5sAsked.all == [true])
        #expect(sizes.skipped(from: Self.plan) == [Self.files[0]])
        #expect(checksums.redone.map { $0.findings.map(\.problem) } == [[.altered(recorded: "recorded", found: "found")]])
    }

    @Test func aPageThatCannotBeReadFailsTheNightAfterTheOnesBefore() async throws {
        let done = Self.entries(Self.files.map { ($0, []) })
        let index = FailingPages(index: DoneIndexFake(sets: ["job": done]), failingAfter: 2)
        await #expect(throws: FailingPages.Unreadable.self) {
            try await IncrementalPlan.reading(Self.plan, sets: [DoneIndexSet(jobKey: "job", recipeFingerprint: "r", role: .own)], from: index,
                                              check: Self.sizesOnly, limits: Self.limits, pageSize: 1)
        }
        #expect(index.index.md5sAsked.all.count == 2, "the pages before were read, none after")
    }

    /// The pages of `index`, the first `failingAfter` of them; the next one cannot be read.
    struct FailingPages: DoneIndexPages {
        struct Unreadable: Error {}
        let index: DoneIndexFake
        let failingAfter: Int

        func completedFiles(jobKey: String, recipeFingerprint: String, after cursor: FileIdentity?, limit: Int, md5s: Bool) async throws -> [DoneIndexRow] {
            guard index.md5sAsked.all.count < failingAfter else { throw Unreadable() }
            return try await index.completedFiles(jobKey: jobKey, recipeFingerprint: recipeFingerprint, after: cursor, limit: limit, md5s: md5s)
        }
    }

    /// A digester whose every MD5 is `found`.
    struct FoundDigester: FileDigester {
        func md5Hex(ofFile path: String) throws -> String { "found" }
        func md5Hex(ofOpenFile descriptor: Int32, length: Int64, path: String) throws -> String { "found" }
        func sha1(ofFile path: String, offset: Int64, length: Int64) throws -> [UInt8] { [] }
        func sha256Hex(of text: String) -> String { "" }
    }

    @Test func theReviewNamesOnlyTheEntriesWhoseStandingChanged() async throws {
        // Given: entries 0-3 for files 0-3, 1 and 3 missed by the night before; entry 9 for a file gone from the plan
        let gone = PlannedFile(path: "/in/gone.jpg", relativePath: "gone.jpg", size: 1, modifiedNanoseconds: 0)
        var done = Self.entries([(Self.files[0], []), (Self.files[1], []), (Self.files[2], []), (Self.files[3], [])])
        done[FileIdentity(Self.files[1])]?.missed = true
        done[FileIdentity(Self.files[3])]?.missed = true
        done[FileIdentity(gone)] = CompletedFile(entry: 9, outputs: [])

        // When: a night plans files 0-4, and file 2's output is gone
        done[FileIdentity(Self.files[2])]?.outputs = [RecordedOutput(path: "/nonexistent/2.out", size: 1, md5: nil)]
        let incremental = try await Self.read(Self.plan, done: done, limits: Self.limits)

        // Then: 2 (redone) and 9 (gone) are missed; 1 and 3, skipped again, are regained; 0 is not named
        #expect(incremental.skipped(from: Self.plan) == [Self.files[0], Self.files[1], Self.files[3]])
        #expect(incremental.review == DoneIndexReview(missed: [2, 9], regained: [1, 3]))
    }

    @Test func aPlanOutOfPathOrderIsMergedByRealPath() async throws {
        // Given: relative names sort the other way round from the real paths they lead to (symlinks), pages of one file
        let files = (0..<4).map { PlannedFile(path: "/real/\(9 - $0).jpg", relativePath: "\($0).jpg", size: 1, modifiedNanoseconds: 0) }
        let plan = Plan(sharding: files, limits: Self.limits)

        let incremental = try await Self.read(plan, done: Self.entries([(files[0], []), (files[2], []), (files[3], [])]), limits: Self.limits, pageSize: 1)

        #expect(incremental.skipped(from: plan) == [files[0], files[2], files[3]])
        #expect(incremental.plan.shards.flatMap(\.files) == [files[1]])
    }

    @Test func aFileTwoSetsHoldKeepsTheFirstsEntryAndAnEarlierRecipeIsCounted() async throws {
        // Given: the own set holds files 0 and 1 (1's output gone), the legacy key's set 1 and 2, the earlier recipe's 2 and 3
        let index = DoneIndexFake(sets: [
            "own": Self.entries([(Self.files[0], []), (Self.files[1], [RecordedOutput(path: "/nonexistent/1.out", size: 1, md5: nil)])]),
            "legacy": Self.entries([(Self.files[1], []), (Self.files[2], [])], from: 10),
            "earlier": Self.entries([(Self.files[2], []), (Self.files[3], [])], from: 20),
        ])
        let sets = [DoneIndexSet(jobKey: "own", recipeFingerprint: "r", role: .own),
                    DoneIndexSet(jobKey: "legacy", recipeFingerprint: "r", role: .own)]

        // When: the earlier recipe is not accepted, and when it is
        let counted = try await IncrementalPlan.reading(Self.plan, sets: sets + [DoneIndexSet(jobKey: "earlier", recipeFingerprint: "q", role: .earlier)],
                                                        from: index, check: Self.sizesOnly, limits: Self.limits, pageSize: 1)
        let accepted = try await IncrementalPlan.reading(Self.plan, sets: sets + [DoneIndexSet(jobKey: "earlier", recipeFingerprint: "q", role: .accepted)],
                                                         from: index, check: Self.sizesOnly, limits: Self.limits, pageSize: 1)

        // Then: 1 runs again by the own entry (the legacy entry of 1 is not reviewed); 2 is skipped by the legacy entry
        #expect(counted.skipped(from: Self.plan) == [Self.files[0], Self.files[2]])
        #expect(counted.review == DoneIndexReview(missed: [1]))
        #expect(counted.plan.shards.flatMap(\.files) == [Self.files[1], Self.files[3], Self.files[4]])
        #expect(counted.remade == 1 && counted.carried == 0, "3, held by the earlier recipe, is sent")
        // and accepted, 3 is carried; 2 is skipped by the legacy entry, not the earlier recipe's
        #expect(accepted.skipped(from: Self.plan) == [Self.files[0], Self.files[2], Self.files[3]])
        #expect(accepted.carried == 1 && accepted.remade == 0)
    }

    /// Reads `plan` against one set of the done index holding `done`, `pageSize` files a page.
    private static func read(_ plan: Plan, done: [FileIdentity: CompletedFile], limits: ShardLimits, pageSize: Int = 2) async throws -> IncrementalPlan {
        try await IncrementalPlan.reading(plan, sets: [DoneIndexSet(jobKey: "job", recipeFingerprint: "r", role: .own)],
                                          from: DoneIndexFake(sets: ["job": done]), check: sizesOnly, limits: limits, pageSize: pageSize)
    }

    /// Done-index entries for `files`, numbered in order.
    private static func entries(_ files: [(PlannedFile, [RecordedOutput])], from first: Int64 = 0) -> [FileIdentity: CompletedFile] {
        Dictionary(uniqueKeysWithValues: files.enumerated().map {
            (FileIdentity($0.element.0), CompletedFile(entry: first + Int64($0.offset), outputs: $0.element.1))
        })
    }
}
