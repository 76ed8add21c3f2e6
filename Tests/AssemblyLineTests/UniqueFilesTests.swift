@testable import AssemblyLine
import Testing

/// One file per real path, the first by relative path kept, whether or not the paths' hashes collide.
@Suite struct UniqueFilesTests {
    static func file(_ real: String, as relative: String) -> PlannedFile {
        PlannedFile(path: real, relativePath: relative, size: 1, modifiedNanoseconds: 0)
    }

    @Test(arguments: [false, true])
    func aRealPathIsKeptOnceUnderItsFirstRelativePath(colliding: Bool) {
        var files = colliding ? UniqueFiles(hash: { _ in 42 }) : UniqueFiles()
        files.add(Self.file("/in/b/x.jpg", as: "link/x.jpg"))
        files.add(Self.file("/in/a/y.jpg", as: "a/y.jpg"))
        files.add(Self.file("/in/b/x.jpg", as: "b/x.jpg"))
        files.add(Self.file("/in/c/z.jpg", as: "c/z.jpg"))
        files.add(Self.file("/in/c/z.jpg", as: "d/z.jpg"))
        #expect(files.take().map(\.relativePath) == ["b/x.jpg", "a/y.jpg", "c/z.jpg"])
    }
}
