@testable import AssemblyLine
import Testing

/// A planned file gives back the real path it was made with, however much of it it keeps.
@Suite struct PlannedFileTests {
    @Test(arguments: [
        ("/in/a/x.jpg", "a/x.jpg"),
        ("/in/t/target.jpg", "a/link.jpg"),
        ("/x.jpg", "x.jpg"),
        ("x.jpg", "x.jpg"),
        ("/in/ax.jpg", "x.jpg"),
        ("/in/x.jpg", "b/ax.jpg"),
        ("/in/é.jpg", "e\u{301}.jpg"),
    ])
    func thePathIsTheRealPathItWasMadeWith(real: String, relative: String) {
        let file = PlannedFile(path: real, relativePath: relative, size: 3, modifiedNanoseconds: 7)
        #expect(Array(file.path.utf8) == Array(real.utf8))
        #expect(file.relativePath == relative)
    }

    /// Files kept as a directory and a name, or whole (a link), compare by their real paths as those paths' bytes do.
    @Test func realPathsReadInPlaceCompareAsTheirBytes() {
        let files = [("/in/a/x.jpg", "a/x.jpg"), ("/in/a/x.jpg2", "a/x.jpg2"), ("/in/a/", "a/"), ("/in/t/target.jpg", "a/link.jpg"),
                     ("/in/a", "b/a"), ("/in/ab.jpg", "c/ab.jpg"), ("/in/a/y.jpg", "a/y.jpg"), ("/x.jpg", "x.jpg"), ("/in/\u{E9}", "\u{E9}")]
            .map { PlannedFile(path: $0.0, relativePath: $0.1, size: 1, modifiedNanoseconds: 0) }
        for left in files {
            for right in files {
                let bytes = PathText.compare(left.path, right.path).signum()
                #expect(PlannedFile.comparePaths(left, right).signum() == bytes, "\(left.path) against \(right.path)")
                #expect(left.comparePath(to: right.path).signum() == bytes, "\(left.path) against \(right.path)")
            }
        }
    }

    @Test func aFileFoundInItsRealDirectoryEqualsTheSameFileMadeFromItsPath() {
        let found = PlannedFile(relativePath: "a/x.jpg", realDirectory: "/in/a/", realName: "x.jpg", size: 3, modifiedNanoseconds: 7)
        let made = PlannedFile(path: "/in/a/x.jpg", relativePath: "a/x.jpg", size: 3, modifiedNanoseconds: 7)
        #expect(found == made)
        #expect(found.hashValue == made.hashValue)
        #expect(found != PlannedFile(path: "/in/b/x.jpg", relativePath: "a/x.jpg", size: 3, modifiedNanoseconds: 7))
    }

    /// Made from its path in one pass, a file keeps what the walker's file keeps: the same directory, or the whole path.
    @Test(arguments: [("/in/a/x.jpg", "a/x.jpg"), ("/in/t/target.jpg", "a/link.jpg"), ("/x.jpg", "x.jpg"), ("x.jpg", "x.jpg"),
                      ("/in/ax.jpg", "x.jpg"), ("/in/x.jpg", "b/ax.jpg"), ("/in/", "a/"), ("/in/caf\u{E9}.jpg", "d/caf\u{E9}.jpg")])
    func aFileMadeFromItsPathKeepsWhatTheFoundFileKeeps(real: String, relative: String) {
        let (directory, name) = PathText.directoryAndName(of: real)
        let found = PlannedFile(relativePath: relative, realDirectory: directory, realName: name, size: 3, modifiedNanoseconds: 7)
        let made = PlannedFile(path: real, relativePath: relative, size: 3, modifiedNanoseconds: 7)
        #expect(found == made)
        #expect(found.hashValue == made.hashValue)
    }

    @Test(arguments: [("a/b.jpg", "b.jpg", true), ("b.jpg", "b.jpg", true), ("a/ab.jpg", "b.jpg", false),
                      ("b.jpg", "a/b.jpg", false), ("a/", "", false)])
    func endsInNameComparesWholeNames(path: String, name: String, expected: Bool) {
        #expect(PathText.endsInName(path, name) == expected)
    }
}
