import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// `report --history`: a row per night from real runs of the built binary, a batch's partitions merged into one,
/// as a table, JSON and a page checked in headless Chromium (issue 24).
@Suite(.timeLimit(.minutes(3))) struct HistoryReportTests {
    /// `report RUN --format json`'s figure `key` of each run, summed.
    static func figure(_ key: String, of runs: [String], stateDirectory: String, in directory: TemporaryDirectory) async throws -> Int64 {
        var sum: Int64 = 0
        for run in runs {
            let report = try await BinaryRunner.run(["report", run, "--state-dir", stateDirectory, "--format", "json"], in: directory.url)
            sum += try #require(try JSONValue(parsing: Array(report.stdout.utf8)).objectValue?[key]?.integerValue, "\(report.stderr)")
        }
        return sum
    }

    @Test func fourNightsOneOfThemABatchOfTwoPartsAreFourRowsOldestFirst() async throws {
        // Given: a night with a broken input, a night that leaves it out as known bad, a night with one new file,
        // and a night split into two partitions with ledgers of their own
        let directory = try await RunCommandTests.job()
        let sample = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        try Data(contentsOf: sample).prefix(3_000).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        var statuses: [Int32] = []
        for night in 0..<3 {
            if night == 2 { try FileManager.default.copyItem(at: sample, to: directory.url.appendingPathComponent("job/in/squares/new.png")) }
            statuses.append(try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url).status)
        }
        for part in 0..<2 {
            let run = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet", "--partition", "\(part)/2", "--batch", "split",
                                                  "--state-dir", "job/state-p\(part)"], in: directory.url)
            statuses.append(run.status)
        }
        #expect(statuses.first == 1 && statuses.count == 5, "\(statuses)")
        let runs = try await BinaryRunner.run(["runs", "--state-dir", "job/state", "--json"], in: directory.url)
        let wholeRuns = Array((try JSONValue(parsing: Array(runs.stdout.utf8)).arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }.reversed())
        var partRuns: [String] = []
        for part in 0..<2 {
            let listed = try await BinaryRunner.run(["runs", "--state-dir", "job/state-p\(part)", "--json"], in: directory.url)
            partRuns += (try JSONValue(parsing: Array(listed.stdout.utf8)).arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
        }
        #expect(wholeRuns.count == 3 && partRuns.count == 2)

        // When: the history of every ledger is asked for as JSON and as a table
        let ledgers = ["--state-dir", "job/state", "--state-dir", "job/state-p*"]
        let json = try await BinaryRunner.run(["report", "--history", "--format", "json"] + ledgers, in: directory.url)
        let table = try await BinaryRunner.run(["report", "--history"] + ledgers, in: directory.url)

        // Then: a night per run and one for the batch, oldest first, each counting what its runs did
        #expect(json.status == 0 && table.status == 0, "\(json.stderr)\(table.stderr)")
        let nights = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).arrayValue?.compactMap(\.objectValue))
        try #require(nights.count == 4, "\(json.stdout)")
        #expect(nights.map { $0["runs"]?.arrayValue?.compactMap(\.stringValue) ?? [] } == wholeRuns.map { [$0] } + [partRuns], "each night's runs in the order they started")
        func files(_ night: [String: JSONValue], _ state: FileState) -> Int64? { night["files_by_state"]?.objectValue?[state.rawValue]?.integerValue }
        let expected: [[FileState: Int64]] = [[.done: 12, .failed: 1, .skipped: 0, .knownBad: 0], [.done: 0, .failed: 0, .skipped: 12, .knownBad: 1],
                                              [.done: 1, .failed: 0, .skipped: 12, .knownBad: 1], [.done: 13, .failed: 1, .skipped: 0, .knownBad: 0]]
        for (night, counts) in zip(nights, expected) {
            #expect(counts.allSatisfy { files(night, $0.key) == $0.value }, "\(counts): \(night["files_by_state"] ?? .null)")
        }
        #expect(nights[3]["batch"]?.stringValue == "split" && nights[3]["partitions"]?.integerValue == 2)
        #expect(nights[3]["state"]?.stringValue == "1 finished, 1 failed", "\(nights[3])")
        for key in ["bytes_sent", "usage_bytes", "assemblies_created"] {
            for (index, run) in wholeRuns.enumerated() {
                let expected = try await Self.figure(key, of: [run], stateDirectory: "job/state", in: directory)
                #expect(nights[index][key]?.integerValue == expected, "\(key) of night \(index)")
            }
            var parts: Int64 = 0
            for part in 0..<2 { parts += try await Self.figure(key, of: [partRuns[part]], stateDirectory: "job/state-p\(part)", in: directory) }
            #expect(nights[3][key]?.integerValue == parts && parts > 0, "\(key) of the batch")
        }
        let rows = table.stdout.split(separator: "\n")
        #expect(rows.count == 5 && rows[0].hasPrefix("STARTED") && rows[4].contains(" split ") && rows[2].contains(wholeRuns[1]),
                "\(table.stdout)")

        // And: --manifest reads its own state directory alone, --since leaves out what started before it
        let own = try await BinaryRunner.run(["report", "--history", "--manifest", "job/m.yaml", "--format", "json"], in: directory.url)
        #expect(try JSONValue(parsing: Array(own.stdout.utf8)).arrayValue?.count == 3, "\(own.stdout)\(own.stderr)")
        let none = try await BinaryRunner.run(["report", "--history", "--since", "1ms"] + ledgers, in: directory.url)
        #expect(none.status == 0 && none.stdout.hasPrefix("no runs since "), "\(none.stdout)\(none.stderr)")
    }

    @Test func theTrendPageHasAColumnPerNightAndNoRequestOutsideIt() async throws {
        // Given: a night with a broken input, then one that leaves it out as known bad
        let directory = try await RunCommandTests.job()
        let sample = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        try Data(contentsOf: sample).prefix(3_000).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        for _ in 0..<2 { _ = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url) }

        // When: the history is written as a page
        let page = try await BinaryRunner.run(["report", "--history", "--manifest", "job/m.yaml", "--format", "html", "--output", "history.html"],
                                              in: directory.url)
        #expect(page.status == 0 && page.stdout.isEmpty, "\(page.stderr)")

        // Then: Chromium draws it from the file alone: each chart a column per night, the failure and the known bad file
        // in their nights, a table row per night
        let charts = ["#files-trend", "#elapsed-trend", "#bytes-trend", "#usage-trend"]
        let seen = try await HTMLReportTests.browse(directory.file("history.html"),
                                                    count: charts.map { "\($0) g.column" } + ["#files-trend g.column rect.failed", "#files-trend g.column rect.known_bad",
                                                                                               "#files-trend g.column rect.done", "#nights tbody tr"],
                                                    text: ["#nights tbody tr"], in: directory)
        let counts = seen["counts"]?.objectValue ?? [:]
        #expect(seen["outside_requests"] == .array([]) && seen["console"] == .array([]), "\(seen)")
        #expect(seen["blank"] == .bool(false) && seen["csp"]?.stringValue?.hasPrefix("default-src 'none'") == true)
        #expect(charts.allSatisfy { counts["\($0) g.column"] == .integer(2) }, "\(counts)")
        #expect(counts["#files-trend g.column rect.failed"] == .integer(1) && counts["#files-trend g.column rect.known_bad"] == .integer(1), "\(counts)")
        #expect(counts["#files-trend g.column rect.done"] == .integer(1), "the second night did nothing but skip: \(counts)")
        let rows = (seen["texts"]?.objectValue?["#nights tbody tr"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(rows.count == 2 && rows[1].contains("finished"), "\(rows)")
    }

    @Test func historyTakesNoRunAndTableJSONOrHTMLOnly() async throws {
        let directory = try await RunCommandTests.job()
        _ = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        for (arguments, message) in [(["latest", "--history"], "--history reports every night of the ledgers"),
                                     (["--history", "--format", "csv"], "--history: expected --format table, json or html, found csv"),
                                     (["--history", "--failed"], "--history is a row per night"),
                                     (["latest", "--since", "1d"], "--since narrows --history")] {
            let refused = try await BinaryRunner.run(["report"] + arguments + ["--state-dir", "job/state"], in: directory.url)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        let empty = try await BinaryRunner.run(["report", "--history", "--state-dir", "nowhere"], in: directory.url)
        #expect(empty.status == 65 && empty.stderr.contains("no ledger"), "\(empty.stderr)")
    }
}
