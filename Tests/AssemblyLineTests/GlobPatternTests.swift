@testable import AssemblyLine
import Testing

/// One row of the glob semantics table.
struct GlobCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var path: String
    var matches: Bool

    init(_ pattern: String, _ path: String, _ matches: Bool) {
        self.pattern = pattern
        self.path = path
        self.matches = matches
    }

    var testDescription: String { "'\(pattern)' \(matches ? "matches" : "does not match") '\(path)'" }
}

@Suite struct GlobPatternTests {
    static let semantics: [GlobCase] = [
        // `**` at the start, in the middle, at the end
        GlobCase("**/*.jpg", "a.jpg", true),
        GlobCase("**/*.jpg", "x/y/z/a.jpg", true),
        GlobCase("**/*.jpg", "x/a.png", false),
        GlobCase("photos/**/a.jpg", "photos/a.jpg", true),
        GlobCase("photos/**/a.jpg", "photos/2024/06/a.jpg", true),
        GlobCase("photos/**/a.jpg", "other/2024/a.jpg", false),
        GlobCase("photos/**", "photos/a/b/c.txt", true),
        GlobCase("photos/**", "photosx/a", false),
        GlobCase("a/**/**/b", "a/b", true),
        GlobCase("a/**/b/**/c", "a/x/b/y/z/c", true),
        GlobCase("a/**/b/**/c", "a/x/y/c", false),
        // `*` and `?` stay within one name
        GlobCase("*.jpg", "a.jpg", true),
        GlobCase("*.jpg", "dir/a.jpg", false),
        GlobCase("a*b*c", "aXXbYYc", true),
        GlobCase("a*b*c", "aXXbYY", false),
        GlobCase("*", "anything", true),
        GlobCase("a**b", "a/x/b", false),
        GlobCase("a**b", "axyb", true),
        GlobCase("?.jpg", "a.jpg", true),
        GlobCase("?.jpg", "ab.jpg", false),
        GlobCase("?.jpg", "é.jpg", true),
        GlobCase("img_??.png", "img_07.png", true),
        // hidden names only when the segment names them
        GlobCase("*", ".hidden", false),
        GlobCase("**/*.jpg", ".cache/a.jpg", false),
        GlobCase("**/*.jpg", "x/.a.jpg", false),
        GlobCase(".*", ".hidden", true),
        GlobCase("**/.*.jpg", "x/.a.jpg", true),
        GlobCase(".cache/**/*.jpg", ".cache/x/a.jpg", true),
        GlobCase(".cache/**/*.jpg", ".cache/.git/a.jpg", false),
        GlobCase("?hidden", ".hidden", false),
        GlobCase("[.]hidden", ".hidden", false),
        GlobCase("a.*", "a.b", true),
        // character classes
        GlobCase("[abc].jpg", "b.jpg", true),
        GlobCase("[abc].jpg", "d.jpg", false),
        GlobCase("[a-c0-9]x", "7x", true),
        GlobCase("[!a-c]x", "dx", true),
        GlobCase("[!a-c]x", "bx", false),
        GlobCase("[^a-c]x", "bx", false),
        GlobCase("[]]", "]", true),
        GlobCase("[!]]", "a", true),
        GlobCase("[a-]", "-", true),
        GlobCase("[\\]a]", "]", true),
        // escapes
        GlobCase("\\*.jpg", "*.jpg", true),
        GlobCase("\\*.jpg", "a.jpg", false),
        GlobCase("a\\?", "a?", true),
        GlobCase("a\\?", "ab", false),
        GlobCase("\\[x]", "[x]", true),
        GlobCase("\\**", "*abc", true),
        // case-sensitive, byte-exact, absolute versus relative
        GlobCase("*.JPG", "a.jpg", false),
        GlobCase("/data/in/**/*.jpg", "/data/in/a/b.jpg", true),
        GlobCase("/data/in/**/*.jpg", "data/in/a/b.jpg", false),
        GlobCase("data/*.jpg", "/data/a.jpg", false),
        GlobCase("a/./b/../c/*.jpg", "a/c/x.jpg", true),
        GlobCase("photos//*.jpg", "photos/a.jpg", true),
    ]

    @Test(arguments: semantics)
    func matchesLikeAShell(_ row: GlobCase) throws {
        let pattern = try GlobPattern(row.pattern)
        #expect(pattern.matches(row.path) == row.matches)
    }

    @Test(arguments: [
        ("*/tmp/**", ".cache/tmp/x"),
        ("**/tmp/**", ".cache/tmp/x"),
        ("**/*.jpg", ".cache/.a.jpg"),
    ])
    func wildcardsMayMatchHiddenNamesWhenAsked(_ pattern: String, _ path: String) throws {
        let glob = try GlobPattern(pattern)
        #expect(!glob.matches(path))
        #expect(glob.matches(path, hiddenNames: .matchedByWildcards))
    }

    @Test(arguments: [
        ("*.jpg", "/m/IMG_0001.JPG", true, false),
        ("*.jpg", "/m/b.Jpg", true, false),
        ("Photos/*.JPG", "/m/photos/a.jpg", true, false),
        ("img_[0-9]*.jpg", "/m/IMG_0001.jpg", true, false),
        ("[a-c]*", "/m/Bird", true, false),
        ("[!a-z]*", "/m/Quail", false, true),
        ("[!a-z]*", "/m/_x", true, true),
        ("caf\u{E9}.jpg", "/m/CAF\u{C9}.jpg", false, false),
        ("a?c", "/m/A\u{C9}C", true, false),
        ("x_1", "/m/X-1", false, false),
        ("@x", "/m/`x", false, false),
    ])
    func ignoringCaseFoldsASCIILettersAlone(_ pattern: String, _ path: String, _ caselessMatch: Bool, _ strictMatch: Bool) throws {
        let strict = try GlobPattern(pattern, relativeTo: "/m")
        let caseless = try GlobPattern(pattern, relativeTo: "/m", ignoringCase: true)
        #expect(caseless.ignoresCase && caseless.matches(path) == caselessMatch)
        #expect(strict.ignoringCase.matches(path) == caselessMatch, "the same pattern made caseless")
        #expect(strict.matches(path) == strictMatch, "as written")
    }

    @Test(arguments: [
        ("a[bc", 2, "'[' is never closed by ']'"),
        ("photos/[!", 8, "'[' is never closed by ']'"),
        ("[]", 1, "'[' is never closed by ']'"),
        ("x/[a\\", 3, "'[' is never closed by ']'"),
        ("abc\\", 4, "a '\\' at the end escapes nothing"),
        ("a\\/b", 2, "'/' separates names and cannot be escaped"),
        ("[a/b]", 3, "'/' cannot appear inside '[...]'"),
        ("[z-a]", 3, "the range 'z-a' is empty"),
        ("*/../x", 3, "'..' cannot follow a wildcard segment"),
        ("", 1, "the pattern is empty"),
    ])
    func malformedPatternsNameThePatternAndPosition(_ text: String, _ position: Int, _ reason: String) {
        #expect(throws: PlanError.malformedPattern(pattern: text, position: position, reason: reason)) {
            try GlobPattern(text)
        }
    }

    @Test func malformedMessageIsOneLineWithPatternAndPosition() {
        let error = PlanError.malformedPattern(pattern: "photos/[ab", position: 8, reason: "'[' is never closed by ']'")
        #expect(error.description == "glob pattern 'photos/[ab', position 8: '[' is never closed by ']'")
    }

    @Test func relativePatternResolvesAgainstDirectoryLiterally() throws {
        let pattern = try GlobPattern("../photos/**/*.jpg", relativeTo: "/srv/jobs/[nightly]/")
        #expect(pattern.isAbsolute)
        #expect(pattern.text == "../photos/**/*.jpg")
        #expect(pattern.description == "/srv/jobs/[nightly]/../photos/**/*.jpg")
        #expect(pattern.matches("/srv/jobs/photos/2024/a.jpg"))
        #expect(!pattern.matches("/srv/jobs/[nightly]/photos/a.jpg"))
        #expect(pattern.walkRoot == "/srv/jobs/photos")
    }

    @Test func absolutePatternIgnoresTheDirectory() throws {
        let pattern = try GlobPattern("/data/in/*.jpg", relativeTo: "/srv")
        #expect(pattern.description == "/data/in/*.jpg")
        #expect(pattern.matches("/data/in/a.jpg"))
    }

    @Test func resolvingAgainstARelativeDirectoryIsAnError() {
        #expect(throws: PlanError.relativeBase(base: "jobs")) {
            try GlobPattern("*.jpg", relativeTo: "jobs")
        }
    }

    @Test(arguments: [
        ("/data/in/**/*.jpg", "/data/in"),
        ("/data/in/a.jpg", "/data/in"),
        ("/data/*/2024/*.jpg", "/data"),
        ("/*.jpg", "/"),
        ("/**", "/"),
        ("/data/in/\\*x/*.jpg", "/data/in/*x"),
    ])
    func walkStartsAtTheLiteralDirectory(_ text: String, _ root: String) throws {
        #expect(try GlobPattern(text).walkRoot == root)
    }

    @Test func walkerWalksNestedRootsOnce() throws {
        let walker = try DirectoryWalker(
            include: [
                GlobPattern("/data/in/**/*.jpg"), GlobPattern("/data/in/sub/*.png"),
                GlobPattern("/data/in-other/*.jpg"), GlobPattern("/srv/*.jpg"),
            ],
            exclude: [])
        #expect(walker.roots() == ["/data/in", "/data/in-other", "/srv"])
    }
}
