import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import SQLiteLedger
import Testing
import TestSupport

/// Nights whose inputs are the rows of a list of URLs (`inputs.urls`): read by the run, imported by the service, never uploaded.
@Suite struct URLListNightTests {
    static let cdn = "https://cdn.example.com"

    /// A harness whose list is `lists/<list>` holding `rows`, and whose URLs serve `content` (by last path segment) under `web/`.
    static func harness(list: String = "tonight.csv", _ rows: String, content: [String: String], extra: String = "") throws -> SessionHarness {
        let harness = try SessionHarness(files: [:], urls: true)
        for (segment, text) in content { _ = try harness.directory.write("web/\(segment)", text) }
        _ = try harness.directory.write("lists/\(list)", rows)
        try harness.writeRemoteManifest(name: "url-night", inputs: "  urls: {file: lists/\(list)}", extra: extra)
        return harness
    }

    static let content = ["a.txt": "first\n", "b%20c.txt": "second\n", "%C3%BCber.txt": "third\n", "d.txt": "fourth\n"]

    static let rows = """
        url,etag,size
        \(cdn)/media/a.txt,e-a1,6
        \(cdn)/media/b%20c.txt,e-b1,7
        \(cdn)/media/%C3%BCber.txt,e-c1,6
        \(cdn)/d.txt,e-d1,7

        """

    static let urls = ["\(cdn)/d.txt", "\(cdn)/media/%C3%BCber.txt", "\(cdn)/media/a.txt", "\(cdn)/media/b%20c.txt"]

    @Test func aNightImportsEachURLOnceAndUploadsNothing() async throws {
        let harness = try Self.harness(Self.rows, content: Self.content)
        let outcome = try await harness.run()

        #expect(outcome.state == .finished)
        #expect(harness.service.uploaded.isEmpty)
        #expect(harness.service.imported.flatMap(\.self).sorted() == Self.urls)
        #expect(harness.output("media/a.txt") == "first\n")
        #expect(harness.output("media/b c.txt") == "second\n")
        #expect(harness.output("media/über.txt") == "third\n")
        #expect(harness.output("d.txt") == "fourth\n")
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        #expect(files.map(\.file.path).sorted() == Self.urls)
        #expect(harness.service.transport.requests(.head, Self.cdn).isEmpty)
    }

    @Test func theNextNightsSendOnlyAnEditedAndANewRow() async throws {
        let harness = try Self.harness(Self.rows, content: Self.content)
        _ = try await harness.run()
        let second = try await harness.run()
        #expect(second.summary.filesByState[.skipped] == 4)
        #expect(harness.service.imported.count == 2)

        _ = try harness.directory.write("web/a.txt", "first, edited\n")
        _ = try harness.directory.write("web/e.txt", "a new row\n")
        _ = try harness.directory.write("lists/tonight.csv", Self.rows.replacingOccurrences(of: "e-a1,6", with: "e-a2,14") + "\(Self.cdn)/e.txt,e-e1,10\n")
        let third = try await harness.run()
        #expect(third.state == .finished)
        #expect(harness.service.imported.dropFirst(2).flatMap(\.self).sorted() == ["\(Self.cdn)/e.txt", "\(Self.cdn)/media/a.txt"])
        #expect(harness.output("media/a.txt") == "first, edited\n")
        #expect(harness.output("e.txt") == "a new row\n")
    }

    /// The URLs each creation imported, with the `fields` its params carried (null for none).
    static func creations(of harness: SessionHarness) -> [[String]: JSONValue] {
        var found: [[String]: JSONValue] = [:]
        for request in harness.service.transport.requests(.post, "\(SessionHarness.endpoint)/assemblies/") {
            let params = ScriptedService.params(of: request)?.objectValue
            guard case let .array(urls)? = params?["steps"]?.objectValue?[ImportStep.name]?.objectValue?["url"] else { continue }
            found[urls.compactMap(\.stringValue)] = params?["fields"] ?? .null
        }
        return found
    }

    @Test func rowsOfOtherFieldsGoToOtherAssembliesWhoseParamsCarryThem() async throws {
        let rows = """
            url,etag,fields.album
            \(Self.cdn)/media/a.txt,e-a1,summer
            \(Self.cdn)/media/b%20c.txt,e-b1,summer
            \(Self.cdn)/media/%C3%BCber.txt,e-c1,winter
            \(Self.cdn)/d.txt,e-d1,

            """
        let harness = try Self.harness(rows, content: Self.content)
        let first = try await harness.run()
        #expect(first.state == .finished)
        let summer = JSONValue.object(["album": .string("summer")]), winter = JSONValue.object(["album": .string("winter")])
        #expect(Self.creations(of: harness) == [
            ["\(Self.cdn)/media/a.txt", "\(Self.cdn)/media/b%20c.txt"]: summer, ["\(Self.cdn)/media/%C3%BCber.txt"]: winter,
            ["\(Self.cdn)/d.txt"]: .null,
        ])
        #expect(harness.output("media/über.txt") == "third\n")

        // A night of two edited rows shards them again: still apart, each with its own fields.
        let edited = rows.replacingOccurrences(of: "e-b1", with: "e-b2").replacingOccurrences(of: "e-c1", with: "e-c2")
        _ = try harness.directory.write("lists/tonight.csv", edited)
        _ = try await harness.run()
        #expect(harness.service.imported.dropFirst(3).sorted { $0[0] < $1[0] }
            == [["\(Self.cdn)/media/%C3%BCber.txt"], ["\(Self.cdn)/media/b%20c.txt"]])
        #expect(Self.creations(of: harness)[["\(Self.cdn)/media/b%20c.txt"]] == summer)

        // A row whose fields are edited is made again, with them.
        _ = try harness.directory.write("lists/tonight.csv", edited.replacingOccurrences(of: "e-d1,", with: "e-d1,winter"))
        _ = try await harness.run()
        #expect(harness.service.imported.dropFirst(5) == [["\(Self.cdn)/d.txt"]])
        #expect(Self.creations(of: harness)[["\(Self.cdn)/d.txt"]] == winter)
    }

    @Test func filesFromKeepsTheRowsOfOtherFieldsInOtherShards() async throws {
        let rows = "url,etag,fields.album\n\(Self.cdn)/media/a.txt,e-a1,summer\n\(Self.cdn)/d.txt,e-d1,winter\n\(Self.cdn)/e.txt,e-e1,winter\n"
        let harness = try Self.harness(rows, content: Self.content)
        var manifest = try harness.manifest()
        manifest.onlyFiles = [PathKey("media/a.txt"), PathKey("d.txt")]
        let planned = try await manifest.planInputs(remote: harness.remoteInputs).plan
        #expect(planned.shards.map { $0.files.map(\.relativePath) } == [["media/a.txt"], ["d.txt"]])
        #expect(planned.shards.map(\.fields) == [["album": .string("summer")], ["album": .string("winter")]])
    }

    @Test func aResumeSignsEachShardWithTheFieldsItWasPlannedWith() async throws {
        let rows = "url,etag,fields.album\n\(Self.cdn)/media/a.txt,e-a1,summer\n\(Self.cdn)/d.txt,e-d1,winter\n"
        let harness = try Self.harness(rows, content: Self.content, extra: "concurrency: {assemblies: 1}")
        let stop = RunStop()
        harness.service.stopAtFirstDownload(stop)
        let interrupted = try await harness.run(stop: stop)
        #expect(interrupted.state == .interrupted)
        #expect(Self.creations(of: harness) == [["\(Self.cdn)/media/a.txt"]: .object(["album": .string("summer")])])

        let resumed = try await harness.resume(interrupted.runID)
        #expect(resumed.state == .finished)
        #expect(Self.creations(of: harness)[["\(Self.cdn)/d.txt"]] == .object(["album": .string("winter")]))
    }

    @Test func theEmbeddedServiceMayImportFromThisMachineAndAnEndpointURLMayNot() async throws {
        let rows = "url,etag\nhttp://127.0.0.1:8080/a.txt,e-a1\n\(Self.cdn)/d.txt,e-d1\n"
        let harness = try Self.harness(rows, content: Self.content)
        let list = URLListSettings(file: harness.directory.file("lists/tonight.csv"), format: nil)
        func planned(_ endpoint: Endpoint) async throws -> PlanResult {
            try await URLListPlanner(list: list, include: [], exclude: [], limits: ShardLimits(), endpoint: endpoint)
                .plan(probingWith: harness.remoteInputs)
        }
        #expect(try await planned(.embedded).plan.shards.flatMap(\.files).map(\.path) == ["http://127.0.0.1:8080/a.txt", "\(Self.cdn)/d.txt"])
        let remote = try await planned(.url(SessionHarness.endpoint))
        #expect(remote.plan.shards.flatMap(\.files).map(\.path) == ["\(Self.cdn)/d.txt"])
        #expect(remote.warnings.map(\.path) == ["\(list.file):2"])
    }

    @Test func aListWithoutIdentityAsksEachURLOnceAndAMissingOneIsAWarning() async throws {
        let rows = "\(Self.cdn)/media/a.txt\n# not a row\n\(Self.cdn)/gone.txt\n\(Self.cdn)/d.txt\n"
        let harness = try Self.harness(list: "tonight.txt", rows, content: Self.content)
        let web = harness.directory.file("web")
        harness.service.transport.script(.head, Self.cdn, times: 100) { request in
            let segment = String(request.url.split(separator: "/").last ?? "")
            guard let data = FileManager.default.contents(atPath: web + "/" + segment) else { return .bytes(404, []) }
            return .response(status: 200, headers: ["ETag": "\"v-\(data.count)\"", "Content-Length": "\(data.count)"], body: [])
        }
        let outcome = try await harness.run()

        #expect(outcome.state == .finished)
        #expect(harness.service.transport.requests(.head, Self.cdn).map(\.url).sorted()
            == ["\(Self.cdn)/d.txt", "\(Self.cdn)/gone.txt", "\(Self.cdn)/media/a.txt"])
        #expect(harness.service.imported.flatMap(\.self).sorted() == ["\(Self.cdn)/d.txt", "\(Self.cdn)/media/a.txt"])
        #expect(harness.observer.warnings.all.map(\.description)
            == ["\(harness.directory.file("lists/tonight.txt")):3: left out: \(Self.cdn)/gone.txt: the HEAD request was answered 404"])
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        #expect(files.map(\.file.size).sorted() == [6, 7])
    }

    @Test func aHostileListPlansItsGoodRowsAndNeverAsksForTheBadOnes() async throws {
        let rows = """
            url,etag
            \(Self.cdn)/media/a.txt,e-a1
            http://169.254.169.254/latest/meta-data,e-x
            https://user:pw@cdn.example.com/a.jpg,e-y
            file:///etc/passwd,e-z
            \(Self.cdn)/d.txt,e-d1

            """
        let harness = try Self.harness(rows, content: Self.content)
        let outcome = try await harness.run()

        #expect(outcome.state == .finished)
        #expect(harness.service.imported.flatMap(\.self).sorted() == ["\(Self.cdn)/d.txt", "\(Self.cdn)/media/a.txt"])
        let list = harness.directory.file("lists/tonight.csv")
        #expect(harness.observer.warnings.all.map(\.path) == ["\(list):3", "\(list):4", "\(list):5"])
        #expect(!harness.observer.warnings.all.map(\.description).joined().contains("pw"))
        let asked = harness.service.transport.requests.map(\.url)
        #expect(!asked.contains { $0.contains("169.254") || $0.contains("user:pw") || $0.hasPrefix("file:") })
    }

    @Test func aRowRemovedFromTheListIsReportedNotFailed() async throws {
        let harness = try Self.harness(Self.rows, content: Self.content)
        _ = try await harness.run()
        _ = try harness.directory.write("lists/tonight.csv", Self.rows.replacingOccurrences(of: "\(Self.cdn)/d.txt,e-d1,7\n", with: ""))
        let next = try await harness.run()
        #expect(next.state == .finished)
        #expect(next.failures.isEmpty)

        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: SQLiteLedgerStore())
        let audit = try await OutputAudit.of(try harness.manifest(), at: locator, check: OutputCheck(checksums: nil), remote: harness.remoteInputs)
        #expect(audit.orphans.map(\.input) == ["\(Self.cdn)/d.txt"])
        #expect(audit.findings.isEmpty)
    }

    @Test func theVersionStampFollowsTheETagElseTheLastModifiedAndTheFields() throws {
        let modified = try URLIdentity.lastModified("Sun, 06 Nov 1994 08:49:37 GMT")
        let tagged = URLListPlanner.versionStamp(of: URLIdentity(etag: "e1", lastModified: modified), fields: [:])
        #expect(tagged == URLListPlanner.versionStamp(of: URLIdentity(etag: "e1", size: 9), fields: [:]))
        #expect(tagged != URLListPlanner.versionStamp(of: URLIdentity(etag: "e2"), fields: [:]))
        #expect(tagged != URLListPlanner.versionStamp(of: URLIdentity(etag: "e1"), fields: ["album": .string("summer")]))
        let dated = URLListPlanner.versionStamp(of: URLIdentity(lastModified: modified), fields: [:])
        #expect(dated != URLListPlanner.versionStamp(of: URLIdentity(lastModified: try URLIdentity.lastModified("Mon, 07 Nov 1994 08:49:37 GMT")), fields: [:]))
        #expect(dated != URLListPlanner.versionStamp(of: URLIdentity(), fields: [:]))
    }
}
