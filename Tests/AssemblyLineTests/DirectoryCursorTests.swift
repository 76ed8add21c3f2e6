@testable import AssemblyLine
import Foundation
import TestSupport
import Testing

/// Outputs looked at by name in the directory held open: the same answers `stat` of their paths gives.
@Suite struct DirectoryCursorTests {
    @Test func outputsInTurnsOfDirectoriesThroughLinksAndGoneAreFoundAsStatFindsThem() throws {
        // Given: two directories, one also reached through a link, and a name that is a directory
        let directory = try TemporaryDirectory()
        try directory.write("one/a.out", "12345")
        try directory.write("two/b.out", "123")
        try directory.write("one/sub/c.out", "1")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: directory.file("one"))
        var cursor = DirectoryCursor()

        // When: looked at in turns, and in a directory that is not there
        let sizes = ["one/a.out", "two/b.out", "one/a.out", "link/a.out", "one/gone.out", "gone/a.out", "one/sub", "two/b.out"].map {
            cursor.status(of: directory.file($0)).map { ($0.st_mode & S_IFMT) == S_IFREG ? Int64($0.st_size) : -1 }
        }

        // Then
        #expect(sizes == [5, 3, 5, 5, nil, nil, -1, 3])
    }
}
