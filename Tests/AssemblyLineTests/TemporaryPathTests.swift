import AssemblyLine
import Testing

/// Download temp names always fit a file system's name limit.
@Suite struct TemporaryPathTests {
    @Test func aShortNameGetsPartAppended() {
        #expect(ResultDownloader.temporaryPath(for: "/out/a/photo.jpg") == "/out/a/photo.jpg.part")
        let fits = String(repeating: "x", count: 246) + ".jpg"
        #expect(ResultDownloader.temporaryPath(for: "/out/\(fits)") == "/out/\(fits).part")
    }

    @Test func aLongNameIsShortenedToOneThatFitsAndStaysTheSame() {
        let long = String(repeating: "é", count: 110) + String(repeating: "y", count: 28) + ".jpg"
        let other = String(repeating: "é", count: 110) + String(repeating: "z", count: 28) + ".jpg"
        #expect(long.utf8.count == 252)
        let temporary = ResultDownloader.temporaryPath(for: "/out/\(long)")
        let name = String(temporary.dropFirst("/out/".count))
        #expect(temporary.hasPrefix("/out/") && name.hasSuffix(".part") && name.utf8.count <= 255)
        #expect(name.hasPrefix(String(repeating: "é", count: 100) + "-"), "cut on a whole character")
        #expect(ResultDownloader.temporaryPath(for: "/out/\(long)") == temporary)
        #expect(ResultDownloader.temporaryPath(for: "/out/\(other)") != temporary)
    }
}
