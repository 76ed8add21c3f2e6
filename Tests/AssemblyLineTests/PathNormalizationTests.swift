@testable import AssemblyLine
import Testing

/// The planner's fast path for paths already normalized gives what the component-wise normalization gives.
@Suite struct PathNormalizationTests {
    @Test(arguments: [
        ("/", true), ("/a", true), ("/a/b.jpg", true), ("/a/...", true), ("/a/.hidden", true), ("/a/..b", true),
        ("", false), ("a/b", false), ("//a", false), ("/a/", false), ("/a//b", false), ("/.", false), ("/..", false),
        ("/a/./b", false), ("/a/../b", false), ("/a/.", false), ("/a/..", false), ("/ä/ü.png", true),
    ])
    func alreadyNormalizedPathsAreRecognized(path: String, normalized: Bool) {
        #expect(PathText.isNormalizedAbsolute(path) == normalized)
        let slow = "/" + PathText.components(path).joined(separator: "/")
        #expect(PathText.normalizedAbsolute(path) == slow, "\(path)")
        #expect(!normalized || slow == path, "\(path) is called normalized but normalizes to \(slow)")
    }

    @Test(arguments: ["a/b.jpg", "run/resize/a/x.jpg", "a/../b", "./a", "a//b", "/a", "a/", "", ".", "...", "a/.b"])
    func aLayoutRendersTheSamePathWhetherOrNotItNeedsCleaning(rendered: String) throws {
        let layout = try OutputLayout("{name}")
        let cleaned = rendered.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
        #expect(layout.render([.name: rendered]) == cleaned, "\(rendered)")
    }
}
