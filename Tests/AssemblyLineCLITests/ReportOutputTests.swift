@testable import AssemblyLineCLI
import Foundation
import TestSupport
import Testing

/// `report --output FILE` in every format: what standard output would hold, written whole, streamed where the format streams.
@Suite(.timeLimit(.minutes(3))) struct ReportOutputTests {
    @Test(arguments: [["--format", "table"], ["--format", "json"], ["--format", "csv"], ["--failed"], ["--failed", "--format", "paths0"],
                      ["--failed", "--format", "csv"], ["--results", "--format", "json"]])
    func eachFormatWritesToTheFileWhatStandardOutputWouldHold(format: [String]) async throws {
        let directory = try await LedgerCommandsTests.stateDirectory()
        let printed = try await BinaryRunner.run(["report", "latest"] + format, in: directory.url)
        let written = try await BinaryRunner.run(["report", "latest", "--output", "report.out"] + format, in: directory.url)
        #expect(printed.status == 0 && written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        let file = try String(contentsOfFile: directory.file("report.out"), encoding: .utf8)
        #expect(file == printed.stdout && !file.isEmpty, "\(format)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["report.out", "runs"], "no temporary file is left")
    }

    @Test func aReportThatFailsLeavesTheFileAsItWasAndAnUnwritableOneExits73() async throws {
        let directory = try await LedgerCommandsTests.stateDirectory()
        try directory.write("report.csv", "yesterday's\n")
        let unknown = try await BinaryRunner.run(["report", "20990101T000000Z-cccccc", "--format", "csv", "--output", "report.csv"], in: directory.url)
        #expect(unknown.status == 65, "\(unknown.stderr)")
        #expect(try String(contentsOfFile: directory.file("report.csv"), encoding: .utf8) == "yesterday's\n")
        let unwritable = try await BinaryRunner.run(["report", "latest", "--format", "json", "--output", "gone/report.json"], in: directory.url)
        #expect(unwritable.status == 73 && unwritable.stderr == "Error: cannot write gone/report.json: No such file or directory\n", "\(unwritable.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["report.csv", "runs"])
    }

    @Test func aStreamedReportReachesTheTemporaryFileAsItIsMadeAndTheTargetOnlyWhole() async throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("files.csv")
        let temporary = target + ".\(getpid()).tmp"
        try await WholeFileWriter.write(to: target) { write in
            write("first page\n")
            let soFar = try String(contentsOfFile: temporary, encoding: .utf8)
            #expect(soFar == "first page\n", "written as it comes, not held")
            #expect(!FileManager.default.fileExists(atPath: target), "no reader sees half a report")
            write("second page\n")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "first page\nsecond page\n")
        #expect(!FileManager.default.fileExists(atPath: temporary))

        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await WholeFileWriter.write(to: target) { write in
                write("a page\n")
                throw Broken()
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "first page\nsecond page\n" && !FileManager.default.fileExists(atPath: temporary))
    }
}
