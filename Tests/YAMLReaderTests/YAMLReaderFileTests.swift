import AssemblyLine
import ConfigFormat
import Foundation
import Testing
import YAMLReader

/// `SourceText(contentsOfFile:)` and `parse(_:)` on real files in a temporary directory.
@Suite struct YAMLReaderFileTests {
    @Test func parsesAFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("m.yaml").path
            try "a: [1, 2]\n".write(toFile: path, atomically: true, encoding: .utf8)
            let root = try YAMLReader.parse(SourceText(contentsOfFile: path))
            #expect(root == Node.mapping(1, 1, [
                (Node.plain("a", 1, 1), Node.sequence(1, 4, [Node.plain("1", 1, 5), Node.plain("2", 1, 8)])),
            ]))
        }
    }

    @Test func parseErrorsNameTheFilePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("m.yaml").path
            try "a: 1\na: 2\n".write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(Self.fileError(path))
            #expect(error.description == "\(path):2:1: duplicate key 'a' (first at 1:1)\na: 2\n^")
        }
    }

    @Test func missingFileIsAnErrorNamingThePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("missing.yaml").path
            let error = try #require(Self.fileError(path))
            #expect(error.description == "\(path): cannot open the file: No such file or directory")
            #expect(error.mark == nil)
            #expect(error.snippet == nil)
        }
    }

    @Test func directoryIsRefused() throws {
        try withTemporaryDirectory { directory in
            let error = try #require(Self.fileError(directory.path))
            #expect(error.description == "\(directory.path): is not a regular file")
        }
    }

    @Test func oversizedFileIsRefusedWithoutReadingIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("huge.yaml").path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: UInt64(SourceText.maxFileSize + 1))
            try handle.close()
            let error = try #require(Self.fileError(path))
            #expect(error.message == "is \(SourceText.maxFileSize + 1) bytes; a YAML file may have at most \(SourceText.maxFileSize) bytes")
        }
    }

    @Test func invalidUTF8IsLocated() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("latin1.yaml").path
            let bytes: [UInt8] = Array("a: 1\nb: ".utf8) + [0xFF] + Array("x\n".utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let error = try #require(Self.fileError(path))
            #expect(error.description == "\(path):2:4: invalid UTF-8 byte 0xFF; the file must be UTF-8 text\nb: \u{FFFD}x\n   ^")
        }
    }

    @Test func sourceTextKeepsTheTextForLaterErrors() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("m.yaml").path
            try "size: lots\n".write(toFile: path, atomically: true, encoding: .utf8)
            let source = try SourceText(contentsOfFile: path)
            let root = try YAMLReader.parse(source)
            let size = try #require(Node.value("size", in: root))
            let rendered = source.render(mark: size.mark, message: "expected a size such as 512KiB")
            #expect(rendered == "\(path):1:7: expected a size such as 512KiB\nsize: lots\n      ^")
        }
    }

    /// The error reading and parsing the file at `path` raises, or nil.
    private static func fileError(_ path: String) -> YAMLError? {
        do {
            _ = try YAMLReader.parse(SourceText(contentsOfFile: path))
            return nil
        } catch {
            return error
        }
    }
}
