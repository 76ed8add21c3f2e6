@testable import AssemblyLine
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PlannerWalkTests {
    @Test func excludesLeaveOutMatchingFiles() throws {
        let tree = try PlanningTree()
        for name in ["in/a.jpg", "in/skip-1.jpg", "in/sub/skip-2.jpg", "in/sub/b.jpg"] {
            try tree.file(name)
        }

        let plan = try tree.plan(["in/**/*.jpg"], exclude: ["**/skip-*.jpg"], base: "in").plan

        #expect(plan.relativePaths == ["a.jpg", "sub/b.jpg"])
    }

    @Test func excludedDirectoriesArePrunedWithoutBeingRead() throws {
        // Given: broken symlinks inside excluded directories, which would be reported if they were read
        let tree = try PlanningTree()
        for name in ["in/keep/k.jpg", "in/tmp/x.jpg", "in/a/tmp/y.jpg", "in/cache/z.jpg", "in/.cache/tmp/h.jpg", "in/.cache/c.jpg"] {
            try tree.file(name)
        }
        try tree.symlink("in/tmp/broken.jpg", to: "nowhere")
        try tree.symlink("in/cache/broken.jpg", to: "nowhere")

        // When
        let result = try tree.plan(["in/**/*.jpg", "in/.cache/**/*.jpg"], exclude: ["**/tmp/**", "in/cache"], base: "in")

        // Then
        #expect(result.plan.relativePaths == [".cache/c.jpg", "keep/k.jpg"])
        #expect(result.warnings.isEmpty)
    }

    @Test func hiddenEntriesMatchOnlyWhenAPatternNamesThem() throws {
        let tree = try PlanningTree()
        for name in ["a.jpg", ".h.jpg", ".dir/b.jpg", "sub/.c.jpg", "sub/d.jpg"] {
            try tree.file(name)
        }

        #expect(try tree.plan(["**/*.jpg"]).plan.relativePaths == ["a.jpg", "sub/d.jpg"])
        #expect(try tree.plan(["**/.*.jpg", ".dir/*.jpg"]).plan.relativePaths == [".dir/b.jpg", ".h.jpg", "sub/.c.jpg"])
    }

    @Test func filesMissedOnlyByLetterCaseAreOneWarningAndCaseInsensitivePatternsTakeThem() throws {
        let tree = try PlanningTree()
        for name in ["in/a.jpg", "in/IMG_0001.JPG", "in/sub/B.Jpg", "in/c.png", "in/SKIP.JPG", "in/sub/DIR.JPG/d.txt"] {
            try tree.file(name)
        }
        func plan(ignoringCase: Bool) throws -> PlanResult {
            try Planner(include: [try GlobPattern("in/**/*.jpg", relativeTo: tree.root, ignoringCase: ignoringCase)],
                        exclude: [try GlobPattern("**/SKIP.*", relativeTo: tree.root, ignoringCase: ignoringCase)],
                        base: tree.path("in")).plan()
        }

        let strict = try plan(ignoringCase: false)
        let caseless = try plan(ignoringCase: true)

        #expect(strict.plan.relativePaths == ["a.jpg"])
        #expect(strict.warnings == [PlanWarning(
            path: tree.path("in/IMG_0001.JPG"),
            problem: "not an input: include pattern 'in/**/*.jpg' matches it but for letter case (and 1 more such file); "
                + "inputs.case_insensitive: true makes them inputs")])
        #expect(caseless.plan.relativePaths == ["IMG_0001.JPG", "a.jpg", "sub/B.Jpg"])
        #expect(caseless.warnings.isEmpty)
    }

    @Test func aPatternThatMatchesNothingIsAWarningNamingIt() throws {
        // Given: an exclude written relative to inputs.base, which patterns are not read from, and an include of no file
        let tree = try PlanningTree()
        for name in ["media/a.jpg", "media/tmp/b.jpg", "media/c.png"] {
            try tree.file(name)
        }

        // When
        let result = try tree.plan(["media/**/*.jpg", "media/**/*.gif"], exclude: ["tmp/**", "/nowhere/**", "media/*.png"], base: "media")

        // Then
        #expect(result.plan.relativePaths == ["a.jpg", "tmp/b.jpg"])
        #expect(result.warnings == [
            PlanWarning(path: "/nowhere/**", problem: "inputs.exclude pattern '/nowhere/**' matches nothing the include patterns reach"),
            PlanWarning(path: tree.path("media/**/*.gif"), problem: "inputs.include pattern 'media/**/*.gif' matches no file; "
                + "a relative pattern is read from the manifest's directory, not from inputs.base"),
            PlanWarning(path: tree.path("tmp/**"), problem: "inputs.exclude pattern 'tmp/**' matches nothing the include patterns reach; "
                + "a relative pattern is read from the manifest's directory, not from inputs.base"),
        ])
    }

    @Test func onlyDirectoriesThePatternsCanReachAreRead() throws {
        let tree = try PlanningTree()
        try tree.file("in/x/2024/a.jpg")
        try tree.file("in/y/2023/b.jpg")
        try tree.symlink("in/x/other-broken.jpg", to: "nowhere")
        try tree.directory("in/y/2024")
        try tree.symlink("in/y/2024/broken.jpg", to: "nowhere")

        let result = try tree.plan(["in/*/2024/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["x/2024/a.jpg"])
        #expect(result.warnings == [PlanWarning(path: tree.path("in/y/2024/broken.jpg"), problem: "broken symlink: No such file or directory")])
    }

    @Test func symlinkLoopsEndAndAreReported() throws {
        let tree = try PlanningTree()
        try tree.file("in/a/b.jpg")
        try tree.symlink("in/a/up", to: "..")
        try tree.symlink("in/a/self", to: ".")
        try tree.symlink("in/x.jpg", to: "y.jpg")
        try tree.symlink("in/y.jpg", to: "x.jpg")

        let result = try tree.plan(["in/**/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["a/b.jpg"])
        let loop = "skipped: leads back to a directory being walked (symlink loop)"
        #expect(result.warnings == [
            PlanWarning(path: tree.path("in/a/self"), problem: loop),
            PlanWarning(path: tree.path("in/a/up"), problem: loop),
            PlanWarning(path: tree.path("in/x.jpg"), problem: "broken symlink: symlink loop"),
            PlanWarning(path: tree.path("in/y.jpg"), problem: "broken symlink: symlink loop"),
        ])
    }

    @Test func aSymlinkedFileIsDeduplicatedWithItsTarget() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg", bytes: 3)
        try tree.symlink("in/z-link.jpg", to: "a.jpg")
        try tree.file("in/photos/p.jpg")
        try tree.symlink("in/zz-alias", to: "photos")

        let files = try tree.plan(["in/**/*.jpg"], base: "in").plan.shards.flatMap(\.files)

        #expect(files.map(\.relativePath) == ["a.jpg", "photos/p.jpg"])
        #expect(files.map(\.path) == [tree.path("in/a.jpg"), tree.path("in/photos/p.jpg")])
    }

    @Test func ofTwoPathsToOneFileTheFirstByRelativePathIsKept() throws {
        let tree = try PlanningTree()
        try tree.file("in/b.jpg")
        try tree.symlink("in/a-link.jpg", to: "b.jpg")

        let files = try tree.plan(["in/*.jpg"], base: "in").plan.shards.flatMap(\.files)

        #expect(files == [PlannedFile(path: tree.path("in/b.jpg"), relativePath: "a-link.jpg", size: 1, modifiedNanoseconds: files[0].modifiedNanoseconds)])
    }

    @Test func symlinksLeadingOutOfTheTreeAreFollowed() throws {
        let tree = try PlanningTree()
        try tree.file("outside/x.jpg", bytes: 5)
        try tree.file("elsewhere/deep/y.jpg")
        try tree.symlink("in/ext.jpg", to: "../outside/x.jpg")
        try tree.symlink("in/more", to: tree.path("elsewhere"))

        let files = try tree.plan(["in/**/*.jpg"], base: "in").plan.shards.flatMap(\.files)

        #expect(files.map(\.relativePath) == ["ext.jpg", "more/deep/y.jpg"])
        #expect(files.map(\.path) == [tree.path("outside/x.jpg"), tree.path("elsewhere/deep/y.jpg")])
        #expect(files.map(\.size) == [5, 1])
    }

    @Test func overlappingIncludesGiveEachFileOnce() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        try tree.file("in/sub/b.jpg")

        let plan = try tree.plan(["**/*.jpg", "in/*.jpg", "in/sub/b.jpg"]).plan

        #expect(plan.relativePaths == ["in/a.jpg", "in/sub/b.jpg"])
    }

    @Test func aBrokenSymlinkIsReportedByPathAndThePlanStillMade() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        try tree.symlink("in/gone.jpg", to: "deleted.jpg")

        let result = try tree.plan(["in/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["a.jpg"])
        #expect(result.warnings.map(\.description) == ["\(tree.path("in/gone.jpg")): broken symlink: No such file or directory"])
    }

    @Test func aNameThatIsNotUTF8IsReportedAndSkipped() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        let rawName: [UInt8] = Array("in/f".utf8) + [0xFF] + Array(".jpg".utf8)
        let descriptor = (Array(tree.root.utf8) + [UInt8(ascii: "/")] + rawName + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)

        let result = try tree.plan(["in/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["a.jpg"])
        #expect(result.warnings == [PlanWarning(path: tree.path("in/f\u{FFFD}.jpg"), problem: "skipped: the name is not valid UTF-8")])
    }

    /// Tests run as root, whom `chmod 000` does not stop; a directory whose absolute path is longer
    /// than PATH_MAX cannot be opened by anyone, so it stands in for an unreadable directory.
    @Test func anUnreadableDirectoryIsReportedByPathAndThePlanStillMade() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        let names = try tree.deepChain(under: "in/deep", levels: 18)
        defer { tree.removeDeepChain(under: "in/deep", names: names) }
        var firstUnreachable = tree.path("in/deep")
        for name in names {
            firstUnreachable += "/" + name
            if firstUnreachable.utf8.count >= PATH_MAX { break }
        }

        let result = try tree.plan(["in/**/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["a.jpg"])
        #expect(result.warnings == [PlanWarning(path: firstUnreachable, problem: "skipped: the path is longer than PATH_MAX (4096 bytes)")])
    }

    @Test func aTreeDeeperThanTheOpenDirectoriesIsWalkedWholeAndLeftClosed() throws {
        // Given: a file in each of more nested directories than stay open, each listed after the directory below it
        let tree = try PlanningTree()
        let depth = DirectoryWalk.openDirectoryLimit + 8
        var directory = "in"
        var expected: [String] = []
        for level in 0..<depth {
            directory += "/d"
            try tree.file("\(directory)/z\(level).jpg")
            expected.append(String(directory.dropFirst("in/".count)) + "/z\(level).jpg")
        }

        // When
        let files = try tree.plan(["in/**/*.jpg"], base: "in").plan.shards.flatMap(\.files)

        // Then: every file, with its real path, and no directory of the tree still open
        #expect(files.map(\.relativePath) == expected.sorted(by: PathText.precedes))
        #expect(files.map(\.path) == files.map { tree.path("in/" + $0.relativePath) })
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        #expect(!open.contains { $0.hasPrefix(tree.path("in")) })
    }

    @Test(.enabled(if: getuid() != 0, "root reads a directory of mode 000"))
    func aDirectoryWithoutPermissionIsReported() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        try tree.file("in/locked/b.jpg")
        chmod(tree.path("in/locked"), 0)
        defer { chmod(tree.path("in/locked"), 0o755) }

        let result = try tree.plan(["in/**/*.jpg"], base: "in")

        #expect(result.plan.relativePaths == ["a.jpg"])
        #expect(result.warnings == [PlanWarning(path: tree.path("in/locked"), problem: "cannot read directory: Permission denied")])
    }

    @Test func noMatchNamesTheIncludePatterns() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        try tree.file("in/skip.png")

        #expect(throws: PlanError.noMatch(patterns: [tree.path("**/*.png"), tree.path("raw/*.tif")])) {
            try tree.plan(["**/*.png", "raw/*.tif"], exclude: ["**/skip.*"])
        }
        let error = PlanError.noMatch(patterns: ["/x/**/*.png", "/x/raw/*.tif"])
        #expect(error.description == "no file matches the include patterns '/x/**/*.png', '/x/raw/*.tif'")
    }

    @Test func aBaseThatIsNotThereIsSaidApartFromOneThatHoldsNoMatch() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        #expect(throws: PlanError.missingBase(base: tree.path("gone"), isFile: false)) { try tree.plan(["in/**/*.jpg"], base: "gone") }
        #expect(throws: PlanError.missingBase(base: tree.path("in/a.jpg"), isFile: true)) { try tree.plan(["in/**/*.jpg"], base: "in/a.jpg") }
        #expect(throws: PlanError.noMatch(patterns: [tree.path("in/**/*.png")])) { try tree.plan(["in/**/*.png"], base: "in") }
        #expect(PlanError.missingBase(base: "/x/in", isFile: false).description == "the input directory '/x/in' (inputs.base) does not exist")
    }

    @Test func aMatchedFileOutsideTheBaseIsAnError() throws {
        let tree = try PlanningTree()
        try tree.file("in/a.jpg")
        try tree.file("z.jpg")
        try tree.file("b.jpg")

        #expect(throws: PlanError.outsideBase(path: tree.path("b.jpg"), base: tree.path("in"), others: 1)) {
            try tree.plan(["**/*.jpg"], base: "in")
        }
    }

    @Test func relativePatternsAndBaseAreRefused() throws {
        let relative = try GlobPattern("in/*.jpg")
        #expect(throws: PlanError.relativePattern(pattern: "in/*.jpg")) {
            try Planner(include: [relative], base: "/srv").plan()
        }
        #expect(throws: PlanError.relativeBase(base: "srv")) {
            try Planner(include: [GlobPattern("/srv/*.jpg")], base: "srv").plan()
        }
        #expect(throws: PlanError.noIncludePatterns) {
            try Planner(include: [], base: "/srv").plan()
        }
    }
}

extension PlanningTree {
    /// Creates `levels` nested directories of 250-character names under `relative`, with a file at the
    /// bottom, using `mkdirat`/`openat` because the full path outgrows PATH_MAX; returns the names.
    func deepChain(under relative: String, levels: Int) throws -> [String] {
        try directory(relative)
        var directoryFD = open(path(relative), O_RDONLY | O_DIRECTORY)
        try #require(directoryFD >= 0)
        let names = (0..<levels).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0 % 26))), count: 250) }
        for name in names {
            try #require(mkdirat(directoryFD, name, 0o755) == 0)
            let child = openat(directoryFD, name, O_RDONLY | O_DIRECTORY)
            close(directoryFD)
            try #require(child >= 0)
            directoryFD = child
        }
        let file = openat(directoryFD, "bottom.jpg", O_CREAT | O_WRONLY, 0o644)
        close(file)
        close(directoryFD)
        return names
    }

    /// Removes what `deepChain` made, bottom-up through directory descriptors (`FileManager` needs full paths).
    func removeDeepChain(under relative: String, names: [String]) {
        var descriptors = [open(path(relative), O_RDONLY | O_DIRECTORY)]
        for name in names {
            descriptors.append(openat(descriptors[descriptors.count - 1], name, O_RDONLY | O_DIRECTORY))
        }
        unlinkat(descriptors[names.count], "bottom.jpg", 0)
        for level in stride(from: names.count - 1, through: 0, by: -1) {
            close(descriptors[level + 1])
            unlinkat(descriptors[level], names[level], AT_REMOVEDIR)
        }
        close(descriptors[0])
    }
}
