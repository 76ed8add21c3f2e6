@testable import AssemblyLine
import Foundation
import Testing

/// Whether a run may read its inputs: asked of the files it sends alone, once it knows them, and told among the walk's
/// warnings in path order. Root reads any file, so a file gone since the walk stands for one it may not read.
@Suite struct ReadabilityCheckTests {
    @Test func onlyTheFilesSentAreAskedAndTheirWarningsJoinTheWalksByPath() throws {
        // Given: a plan of four files around a broken symlink, three of them gone since the walk
        let tree = try PlanningTree()
        for name in ["a", "b", "d", "e"] { try tree.file("in/\(name).jpg") }
        try tree.symlink("in/c.jpg", to: "nowhere")
        let planned = try tree.plan(["in/*.jpg"], base: "in")
        for name in ["b", "d", "e"] { try FileManager.default.removeItem(atPath: tree.path("in/\(name).jpg")) }

        // When: the run sends all but e.jpg (done before, say)
        let sent = planned.plan.resharded(limits: ShardLimits()) { _, file in file.relativePath != "e.jpg" }
        let checked = planned.checkingReadability(of: sent)

        // Then
        let gone = "cannot be read: No such file or directory; a run fails it alone, before sending anything"
        #expect(checked.warnings == [
            PlanWarning(path: tree.path("in/b.jpg"), problem: gone),
            PlanWarning(path: tree.path("in/c.jpg"), problem: "broken symlink: No such file or directory"),
            PlanWarning(path: tree.path("in/d.jpg"), problem: gone),
        ])
        #expect(checked.checkingReadability(of: sent) == checked, "asked once")
    }

    @Test func aFileReachedThroughASymlinkIsAskedAtItsRealPathWhichARunOpensAndNamedAsWalked() throws {
        // Given: two links to files outside the inputs; since the walk, one target is gone, and the other link
        let tree = try PlanningTree()
        for name in ["one", "two"] {
            try tree.file("elsewhere/\(name).jpg")
            try tree.symlink("in/\(name).jpg", to: tree.path("elsewhere/\(name).jpg"))
        }
        let planned = try tree.plan(["in/*.jpg"], base: "in")
        try FileManager.default.removeItem(atPath: tree.path("elsewhere/one.jpg"))
        try FileManager.default.removeItem(atPath: tree.path("in/two.jpg"))

        // When
        let checked = planned.checkingReadability(of: planned.plan)

        // Then
        #expect(checked.warnings.map(\.path) == [tree.path("in/one.jpg")])
    }

    @Test func thousandsOfFilesAreAskedOnEveryCoreAndToldInPlanOrder() throws {
        // Given: 2,400 files in 24 directories, a few gone since the walk
        let tree = try PlanningTree()
        let names = (0..<2_400).map { String(format: "d%02d/f%03d.jpg", $0 % 24, $0 / 24) }
        for name in names { try tree.file("in/\(name)") }
        let planned = try tree.plan(["in/**/*.jpg"], base: "in", limits: ShardLimits(maxFiles: 10))
        let gone = ["d23/f099.jpg", "d00/f000.jpg", "d11/f050.jpg", "d12/f000.jpg"]
        for name in gone { try FileManager.default.removeItem(atPath: tree.path("in/\(name)")) }

        // When
        let checked = planned.checkingReadability(of: planned.plan)

        // Then
        #expect(checked.warnings.map(\.path) == gone.sorted().map { tree.path("in/\($0)") })
    }
}
