import Foundation
import TestSupport
import Testing

/// The manual page, rendered by a real groff: no warning, and every subcommand with its options.
@Suite(.timeLimit(.minutes(3))) struct ManualCommandTests {
    @Test func groffRendersEverySubcommandAndOptionWithoutAWarning() async throws {
        let directory = try TemporaryDirectory()
        let manual = try await BinaryRunner.run(["manual"], in: directory.url)
        #expect(manual.status == 0 && manual.stdout.hasPrefix(".TH ASSEMBLYLINE 1 "), "\(manual.stderr)")
        let page = try directory.write("assemblyline.1", manual.stdout).path
        let rendered = try await BinaryRunner.run(["-man", "-Tutf8", "-ww", "-P-cbou", page], in: directory.url,
                                            executable: URL(fileURLWithPath: "/usr/bin/groff"))
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(of: "\u{2010}\n", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["NAME assemblyline - Push batches of media files", "validate Check a manifest", "run Run a manifest",
                         "--checksum", "--dry-run", "-q, --quiet", "cancel Stop a run", "prune Delete runs", "EXIT STATUS 0 done;"] {
            #expect(text.contains(expected), "\(expected)")
        }
        let help = try await BinaryRunner.run(["help"], in: directory.url).stdout
        for line in help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n") ?? [] {
            let name = String(line.split(separator: " ").first ?? "")
            #expect(text.contains(" \(name) "), "the manual names \(name)")
        }
    }
}
