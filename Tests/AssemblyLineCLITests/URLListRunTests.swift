import Foundation
import ImageRobot
import TestSupport
import Testing

/// A night of a URL list with the built binary: rows imported by the embedded service from a loopback origin, never uploaded.
@Suite(.timeLimit(.minutes(3))) struct URLListRunTests {
    /// Python's static file server on an ephemeral loopback port, serving `directory`; stopped with the test process.
    final class Origin: Sendable {
        struct Failure: Error {
            var said: String
        }

        let process: Process
        let base: String
        /// Where the server logs each request, a line each.
        let log: String

        init(serving directory: String, log: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory]
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let stdout = ChildLaunch.pipe()
            process.standardOutput = stdout
            try ChildLaunch.run(process)
            let line = String(decoding: stdout.firstLine(), as: UTF8.self)
            guard let port = line.split(separator: " ").first(where: { $0.hasPrefix("port") == false && Int($0) != nil }) else {
                process.terminate()
                throw Failure(said: line)
            }
            self.process = process
            self.log = log
            base = "http://127.0.0.1:\(port)"
        }

        deinit { process.terminate() }
    }

    @Test func aListsRowsAreMadeAsTheirFieldsAskInAssembliesOfTheirOwnAndTheNextNightSendsNothing() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("origin/ü"), withIntermediateDirectories: true)
        for (name, shade) in [("a.png", 20), ("b c.png", 120), ("ü/d.png", 220)] {
            try await BucketRunTests.png(directory.file("origin/\(name)"), shade: shade)
        }
        let origin = try Origin(serving: directory.file("origin"), log: directory.file("origin.log"))
        try directory.write("tonight.csv", """
            url,name,fields.w,etag
            \(origin.base)/a.png,first/a.png,2,"v1"
            \(origin.base)/b%20c.png,,2,"v1"
            \(origin.base)/%C3%BC/d.png,,3,
            http://169.254.169.254/latest/meta-data,,2,"v1"

            """)
        try directory.write("m.yaml", """
            version: 1
            name: url-night
            inputs:
              urls: {file: tonight.csv}
            steps:
              thumb: {robot: /image/resize, use: ":original", width: "$${fields.w}", height: "$${fields.w}", format: png}
            output: {dir: out, layout: "{relpath}.{ext}"}
            state_dir: state

            """)
        let night = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(night.stderr.contains("tonight.csv:5") && night.stderr.contains("169.254.169.254"), "the metadata row is left out, named: \(night.stderr)")
        for (output, side) in [("first/a.png", 2), ("b c.png", 2), ("ü/d.png", 3)] {
            let info = try ImageInspector.inspect(directory.file("out/\(output)"))
            #expect(info.width == side && info.height == side, "\(output) is \(info.width)×\(info.height): its row's fields.w is \(side)")
        }
        let report = try await BinaryRunner.run(["report", "latest", "--manifest", "m.yaml", "--format", "json"], in: directory.url)
        let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        #expect(json?["shards"] as? Int == 2, "the rows of width 2 and the row of width 3 go to Assemblies of their own: \(report.stdout.prefix(400))")
        let asked = try String(contentsOfFile: origin.log, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst().first.map(String.init)
        }
        #expect(asked.sorted() == ["GET /%C3%BC/d.png HTTP/1.1", "GET /a.png HTTP/1.1", "GET /b%20c.png HTTP/1.1", "HEAD /%C3%BC/d.png HTTP/1.1"],
                "each row fetched once by the service, the row without an ETag asked once by HEAD: \(asked)")

        let next = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url)
        #expect(next.stdout.contains("0 files") && next.stdout.contains("3 skipped"), "\(next.stdout)")
    }
}
