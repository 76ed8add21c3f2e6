import AssemblyLine
import Foundation
import TestSupport
import Testing

@Suite struct IncrementalPlanTests {
    static let files = (0..<5).map { PlannedFile(path: "/in/\($0).jpg", relativePath: "\($0).jpg", size: 10, modifiedNanoseconds: Int64($0)) }
    static let limits = ShardLimits(maxFiles: 2)
    static let plan = Plan(sharding: files, limits: limits)
    static let sizesOnly = OutputCheck(checksums: nil)

    @Test func filesDoneBeforeAreSkippedAndTheRestReSharded() {
        let done = Self.entries([(Self.files[0], []), (Self.files[3], [])])
        let incremental = IncrementalPlan(Self.plan, done: done, check: Self.sizesOnly, limits: Self.limits)
        #expect(incremental.skipped == [Self.files[0], Self.files[3]] && incremental.redone.isEmpty)
        #expect(incremental.plan.shards.map { $0.files.map(\.relativePath) } == [["1.jpg", "2.jpg"], ["4.jpg"]])
    }

    @Test func aNightOfThousandsChecksOnEveryCoreAndKeepsPlanOrder() throws {
        let directory = try TemporaryDirectory()
        let files = (0..<3_001).map { PlannedFile(path: "/in/\($0).jpg", relativePath: String(format: "%05d.jpg", $0), size: 1, modifiedNanoseconds: 0) }
        var done: [FileIdentity: CompletedFile] = [:]
        for (index, file) in files.enumerated() where index % 3 != 2 {
            // Every seventh output is gone; files 2, 5, 8... were never done.
            if index % 7 != 0 { try directory.write("\(index).out", "x") }
            done[FileIdentity(file)] = CompletedFile(entry: Int64(index), outputs: [RecordedOutput(path: directory.file("\(index).out"), size: 1, md5: nil)])
        }

        let incremental = IncrementalPlan(Plan(sharding: files, limits: ShardLimits(maxFiles: 50)), done: done, check: Self.sizesOnly,
                                          limits: ShardLimits(maxFiles: 50))

        let indices = files.indices
        #expect(incremental.skipped == indices.filter { $0 % 3 != 2 && $0 % 7 != 0 }.map { files[$0] })
        #expect(incremental.redone.map(\.file) == indices.filter { $0 % 3 != 2 && $0 % 7 == 0 }.map { files[$0] })
        #expect(incremental.plan.shards.flatMap(\.files) == indices.filter { $0 % 3 == 2 || $0 % 7 == 0 }.map { files[$0] }, "in plan order")
        #expect(incremental.review == DoneIndexReview(missed: indices.filter { $0 % 3 != 2 && $0 % 7 == 0 }.map(Int64.init)))
    }

    @Test func aFileChangedSinceIsNotDone() {
        let touched = PlannedFile(path: "/in/0.jpg", relativePath: "0.jpg", size: 10, modifiedNanoseconds: 99)
        let incremental = IncrementalPlan(Self.plan, done: Self.entries([(touched, [])]), check: Self.sizesOnly, limits: Self.limits)
        #expect(incremental.skipped.isEmpty)
        #expect(incremental.plan == Self.plan)
        #expect(incremental.review == DoneIndexReview(missed: [0]), "the entry of the file as it was is missed")
    }

    @Test func aFileWhoseOutputsAreMissingOrResizedRunsAgain() throws {
        let directory = try TemporaryDirectory()
        try directory.write("kept.jpg", "12345")
        try directory.write("shrunk.jpg", "123")
        let kept = RecordedOutput(path: directory.file("kept.jpg"), size: 5, md5: nil)
        let unsized = RecordedOutput(path: directory.file("shrunk.jpg"), size: nil, md5: nil)
        let shrunk = RecordedOutput(path: directory.file("shrunk.jpg"), size: 5, md5: nil)
        let gone = RecordedOutput(path: directory.file("gone.jpg"), size: 5, md5: nil)
        let done = Self.entries([(Self.files[0], [kept, unsized]), (Self.files[1], [kept, shrunk]), (Self.files[2], [gone]),
                                 (Self.files[3], [RecordedOutput(path: directory.path, size: nil, md5: nil)])])

        let incremental = IncrementalPlan(Self.plan, done: done, check: Self.sizesOnly, limits: Self.limits)

        #expect(incremental.skipped == [Self.files[0]])
        #expect(incremental.redone.map(\.file) == [Self.files[1], Self.files[2], Self.files[3]])
        #expect(incremental.redone.map { $0.findings.map(\.problem) } == [[.resized(recorded: 5, found: 3)], [.missing], [.missing]])
        #expect(incremental.plan.shards.flatMap(\.files) == Array(Self.files.dropFirst()))
        let findings = Self.sizesOnly.findings([kept, shrunk, gone])
        #expect(findings.map(\.problem) == [.resized(recorded: 5, found: 3), .missing])
        #expect(findings.map(\.problem.kind) == ["changed", "missing"])
    }

    @Test func theReviewNamesOnlyTheEntriesWhoseStandingChanged() {
        // Given: entries 0-3 for files 0-3, 1 and 3 missed by the night before; entry 9 for a file gone from the plan
        let gone = PlannedFile(path: "/in/gone.jpg", relativePath: "gone.jpg", size: 1, modifiedNanoseconds: 0)
        var done = Self.entries([(Self.files[0], []), (Self.files[1], []), (Self.files[2], []), (Self.files[3], [])])
        done[FileIdentity(Self.files[1])]?.missed = true
        done[FileIdentity(Self.files[3])]?.missed = true
        done[FileIdentity(gone)] = CompletedFile(entry: 9, outputs: [])

        // When: a night plans files 0-4, and file 2's output is gone
        done[FileIdentity(Self.files[2])]?.outputs = [RecordedOutput(path: "/nonexistent/2.out", size: 1, md5: nil)]
        let incremental = IncrementalPlan(Self.plan, done: done, check: Self.sizesOnly, limits: Self.limits)

        // Then: 2 (redone) and 9 (gone) are missed; 1 and 3, skipped again, are regained; 0 is not named
        #expect(incremental.skipped == [Self.files[0], Self.files[1], Self.files[3]])
        #expect(incremental.review == DoneIndexReview(missed: [2, 9], regained: [1, 3]))
    }

    /// Done-index entries for `files`, numbered in order.
    private static func entries(_ files: [(PlannedFile, [RecordedOutput])]) -> [FileIdentity: CompletedFile] {
        Dictionary(uniqueKeysWithValues: files.enumerated().map { (FileIdentity($0.element.0), CompletedFile(entry: Int64($0.offset), outputs: $0.element.1)) })
    }
}
