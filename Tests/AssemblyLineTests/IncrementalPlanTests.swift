import AssemblyLine
import Testing

@Suite struct IncrementalPlanTests {
    static let files = (0..<5).map { PlannedFile(path: "/in/\($0).jpg", relativePath: "\($0).jpg", size: 10, modifiedNanoseconds: Int64($0)) }
    static let limits = ShardLimits(maxFiles: 2)
    static let plan = Plan(sharding: files, limits: limits)

    @Test func filesDoneBeforeAreSkippedAndTheRestReSharded() {
        let done: Set = [FileIdentity(Self.files[0]), FileIdentity(Self.files[3])]
        let incremental = IncrementalPlan(Self.plan, done: done, limits: Self.limits)
        #expect(incremental.skipped == [Self.files[0], Self.files[3]])
        #expect(incremental.plan.shards.map { $0.files.map(\.relativePath) } == [["1.jpg", "2.jpg"], ["4.jpg"]])
    }

    @Test func aFileChangedSinceIsNotDone() {
        let touched = PlannedFile(path: "/in/0.jpg", relativePath: "0.jpg", size: 10, modifiedNanoseconds: 99)
        let incremental = IncrementalPlan(Self.plan, done: [FileIdentity(touched)], limits: Self.limits)
        #expect(incremental.skipped.isEmpty)
        #expect(incremental.plan == Self.plan)
    }
}
