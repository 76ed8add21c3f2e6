import AssemblyLine
import Testing

/// A report page keeps its files' texts in one buffer and gives each file its own outputs, in result order.
@Suite struct ReportedFilePageTests {
    @Test func eachFileHasItsOutputsInTheOrderTheyWereAddedWhateverTheOtherFilesGot() {
        var page = ReportedFilePage()
        for (index, name) in [(10, "a.jpg"), (11, "b.jpg"), (13, "d.jpg")] {
            var (path, relative) = ("/in/\(name)", name)
            path.withUTF8 { path in
                relative.withUTF8 { relative in
                    page.append(index: index, shardIndex: 2, path: path, relativePath: relative, size: Int64(index), modifiedNanoseconds: 1,
                                state: .done, failure: nil)
                }
            }
        }
        for (file, output, size) in [(13, "/out/d-1", 4), (10, "/out/a-1", 1), (13, "https://tmp.test/d-2", 0), (10, "/out/a-2", 2)] {
            var output = output
            output.withUTF8 { page.appendOutput($0, size: Int64(size), toRow: page.position(ofFile: file)!) }
        }

        #expect(page.position(ofFile: 12) == nil && page.position(ofFile: 13) == 2 && page.position(ofFile: 9) == nil)
        let files = page.files
        #expect(files.map(\.record.index) == [10, 11, 13])
        #expect(files.map(\.outputs) == [["/out/a-1", "/out/a-2"], [], ["/out/d-1", "https://tmp.test/d-2"]])
        #expect(files.map(\.outputBytes) == [3, 0, 4])
        #expect(files.map(\.record.file.path) == ["/in/a.jpg", "/in/b.jpg", "/in/d.jpg"])
    }

    @Test func aPageOfRecordsGivesThemBack() {
        let failure = FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad \"file\"", isRetryable: false)
        let files = [
            ReportedFile(record: FileRecord(index: 0, shardIndex: 0, file: PlannedFile(path: "/in/t/target.jpg", relativePath: "a/caf\u{E9}.jpg",
                                                                                     size: 5, modifiedNanoseconds: 9),
                                            state: .failed, failure: failure),
                         outputs: []),
            ReportedFile(record: FileRecord(index: 4, shardIndex: nil, file: PlannedFile(path: "/in/b.jpg", relativePath: "b.jpg",
                                                                                     size: 0, modifiedNanoseconds: 2),
                                            state: .knownBad, failure: nil),
                         outputs: ["/out/b.jpg", "/out/b.png"], outputBytes: 12),
        ]
        #expect(ReportedFilePage(files).files == files)
    }
}
