import AssemblyLine
import Testing

/// Download temp names are the output's and the result's own, and always fit a file system's name limit.
@Suite struct TemporaryPathTests {
    static func result(_ name: String = "photo.jpg", id: String = "r1", url: String = "https://tmp/r1",
                       source: ResultSource = .file(0)) -> NewResult {
        NewResult(source: source, step: "thumb", remoteID: id, name: name, url: url, size: 3, md5: nil, mime: nil,
                  width: nil, height: nil, delivery: .download(to: "/out/\(name)"))
    }

    @Test func aShortNameGetsTheResultsHashAndPartAppended() {
        let temporary = ResultDownloader.temporaryPath(for: "/out/a/photo.jpg", of: Self.result())
        #expect(temporary.hasPrefix("/out/a/photo.jpg.") && temporary.hasSuffix(".part"))
        #expect(temporary.utf8.count == "/out/a/photo.jpg.".utf8.count + 16 + ".part".utf8.count)
        let fits = String(repeating: "x", count: 229) + ".jpg"
        #expect(ResultDownloader.temporaryPath(for: "/out/\(fits)", of: Self.result()).hasPrefix("/out/\(fits)."))
    }

    @Test func twoResultsForOnePathNeverShareATemporaryFileAndOneResultKeepsItsOwn() {
        let first = ResultDownloader.temporaryPath(for: "/out/a.jpg", of: Self.result())
        #expect(ResultDownloader.temporaryPath(for: "/out/a.jpg", of: Self.result("other.jpg")) != first)
        #expect(ResultDownloader.temporaryPath(for: "/out/a.jpg", of: Self.result(source: .file(1))) != first)
        #expect(ResultDownloader.temporaryPath(for: "/out/a.jpg", of: Self.result(source: .several([0, 1]))) != first)
        let remade = Self.result(id: "r2", url: "https://tmp/r2?expires=later")
        #expect(ResultDownloader.temporaryPath(for: "/out/a.jpg", of: remade) == first,
                "a resume's new Assembly makes the result again under a new id and URL: its try finds the killed try's temp file")
    }

    @Test func aLongNameIsShortenedToOneThatFitsAndStaysTheSame() {
        let long = String(repeating: "é", count: 110) + String(repeating: "y", count: 28) + ".jpg"
        let other = String(repeating: "é", count: 110) + String(repeating: "z", count: 28) + ".jpg"
        #expect(long.utf8.count == 252)
        let temporary = ResultDownloader.temporaryPath(for: "/out/\(long)", of: Self.result())
        let name = String(temporary.dropFirst("/out/".count))
        #expect(temporary.hasPrefix("/out/") && name.hasSuffix(".part") && name.utf8.count <= 255)
        #expect(name.hasPrefix(String(repeating: "é", count: 100) + "-"), "cut on a whole character")
        #expect(ResultDownloader.temporaryPath(for: "/out/\(long)", of: Self.result()) == temporary)
        #expect(ResultDownloader.temporaryPath(for: "/out/\(other)", of: Self.result()) != temporary)
    }
}
