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
        #expect(layout.render { _ in rendered } == cleaned, "\(rendered)")
    }

    @Test(arguments: [
        ("/a/b/c.tar.gz", "/a/b", "c.tar.gz", "c.tar", "gz"),
        ("README", ".", "README", "README", nil),
        ("/x.jpg", "/", "x.jpg", "x", "jpg"),
        ("a/\u{301}b.jpg", "a", "\u{301}b.jpg", "\u{301}b", "jpg"),
        ("a/b.\u{301}x", "a", "b.\u{301}x", "b", "\u{301}x"),
    ])
    func pathsAreCutAtTheirLastSlashAndDotByBytes(path: String, directory: String, name: String, stem: String, ext: String?) {
        #expect(PathText.directory(of: path) == directory)
        #expect(PathText.lastComponent(of: path) == name)
        let parts = PathText.stemAndExtension(of: name)
        #expect(parts.stem == stem)
        #expect(parts.extension == ext)
    }
}
