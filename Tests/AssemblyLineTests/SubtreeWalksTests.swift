@testable import AssemblyLine
import Dispatch
import Foundation
import Synchronization
import Testing

/// The walk of a tree on every core: its directories at once, and what one walk would find.
@Suite struct SubtreeWalksTests {
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "one core walks one directory at a time"))
    func theDirectoriesOfARootAreWalkedAtOnce() throws {
        // Given: two directories, and a take that holds the file of each until the other's file is taken too
        let tree = try PlanningTree()
        try tree.file("in/a/1.jpg")
        try tree.file("in/b/1.jpg")
        let walker = try DirectoryWalker(include: [GlobPattern(tree.path("in/**/*.jpg"))], exclude: [])
        let met = Rendezvous()

        // When
        var found: [String] = []
        _ = walker.walk(taking: { found -> (String, Bool) in (found.path, met.arrive()) }) { found.append($0.0 + ($0.1 ? "" : " alone")) }

        // Then: each was taken while the other was walked
        #expect(found == [tree.path("in/a/1.jpg"), tree.path("in/b/1.jpg")])
    }

    @Test func aWalkOnEveryCoreFindsWhatOneWalkWould() throws {
        // Given: one directory below the root, holding 40 directories with an input, a case miss and a broken link each
        let tree = try PlanningTree()
        for index in 0..<40 {
            let folder = String(format: "in/only/d%02d", index)
            try tree.file("\(folder)/x.jpg")
            try tree.file("\(folder)/Y.JPG")
            try tree.symlink("\(folder)/broken.jpg", to: "nowhere")
        }
        try tree.file("in/only/d39/z.png")

        // When
        let result = try tree.plan(["in/**/*.jpg", "in/**/d39/*.png"], exclude: [], base: "in")

        // Then: every file in plan order, every warning by path, the case misses counted over all directories
        #expect(result.plan.relativePaths == (0..<40).map { String(format: "only/d%02d/x.jpg", $0) } + ["only/d39/z.png"])
        let broken = result.warnings.filter { $0.problem.hasPrefix("broken symlink") }.map(\.path)
        #expect(broken == (0..<40).map { tree.path(String(format: "in/only/d%02d/broken.jpg", $0)) })
        let cases = result.warnings.filter { $0.problem.contains("letter case") }
        #expect(cases.map(\.path) == [tree.path("in/only/d00/Y.JPG")] && cases.first?.problem.contains("(and 39 more such files)") == true)
        #expect(!result.warnings.contains { $0.problem.contains("matches no file") }, "the .png pattern took d39's file: \(result.warnings)")
    }
}

/// Two threads meeting: each arrival waits until the other has arrived, or until a minute has passed.
private final class Rendezvous: Sendable {
    private let arrivals = DispatchSemaphore(value: 0)
    private let arrived = Mutex(false)

    /// Whether the other arrived while this one waited.
    func arrive() -> Bool {
        let isFirst = arrived.withLock { arrived in
            defer { arrived = true }
            return !arrived
        }
        guard isFirst else {
            arrivals.signal()
            return true
        }
        return arrivals.wait(timeout: .now() + 60) == .success
    }
}
