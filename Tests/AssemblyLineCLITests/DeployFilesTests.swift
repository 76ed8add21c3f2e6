import Foundation
import TestSupport
import Testing

/// The files of `deploy/` work with the built binary: systemd accepts the units, and the binary accepts the command lines they run.
@Suite(.timeLimit(.minutes(3))) struct DeployFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The arguments after the binary in a command line that runs `/usr/local/bin/assemblyline`.
    static func arguments(in line: String) throws -> [String] {
        let tail = try #require(line.components(separatedBy: "/usr/local/bin/assemblyline ").last)
        return tail.split(separator: " ").map(String.init)
    }

    @Test func systemdAcceptsTheUnitsForTheBuiltBinary() async throws {
        let directory = try TemporaryDirectory()
        let service = try Self.text("deploy/systemd/assemblyline@.service")
            .replacingOccurrences(of: "/usr/local/bin/assemblyline", with: BinaryRunner.binary.path)
        try directory.write("assemblyline@nightly.service", service)
        try directory.write("assemblyline@nightly.timer", try Self.text("deploy/systemd/assemblyline@.timer"))
        try directory.write("assemblyline-failed@x.service", try Self.text("deploy/systemd/assemblyline-failed@.service"))
        let verify = try await BinaryRunner.run(["verify", "--man=no", "./assemblyline@nightly.service", "./assemblyline@nightly.timer",
                                           "./assemblyline-failed@x.service"],
                                          in: directory.url, executable: URL(fileURLWithPath: "/usr/bin/systemd-analyze"))
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }

    @Test(arguments: ["deploy/systemd/assemblyline@.service", "deploy/cron/assemblyline"])
    func theCommandLineIsOneTheBinaryTakes(file: String) async throws {
        let line = try #require(try Self.text(file).split(separator: "\n").first { $0.contains("/usr/local/bin/assemblyline ") })
        var arguments = try Self.arguments(in: String(line))
        #expect(arguments.first == "run" && arguments.contains("--quiet"), "\(arguments)")
        let directory = try await RunCommandTests.job()
        arguments[1] = "job/m.yaml"
        let dryRun = try await BinaryRunner.run(arguments + ["--dry-run"], in: directory.url)
        #expect(dryRun.status == 0, "\(arguments): \(dryRun.stderr)")
    }
}
