import AssemblyLine
import Foundation
import TestSupport
import Testing

/// The output directories a run made: each asked of the file system once, at most a bounded number remembered.
@Suite struct OutputDirectoriesTests {
    @Test func aDirectoryIsMadeOnceAndRememberedUpToTheLimit() throws {
        let root = try TemporaryDirectory()
        let directories = OutputDirectories()
        let first = root.file("out/a/b")
        try directories.make(first)
        #expect(FileManager.default.fileExists(atPath: first), "made with its parents")
        try FileManager.default.removeItem(atPath: root.file("out"))

        try directories.make(first)
        #expect(!FileManager.default.fileExists(atPath: first), "remembered: not asked again")

        for index in 0..<OutputDirectories.limit {
            try directories.make(root.file("many/\(index)"))
        }
        try directories.make(first)
        #expect(FileManager.default.fileExists(atPath: first), "forgotten past the limit, so made again")
    }
}
