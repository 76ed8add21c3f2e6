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

    /// The page in sections as groff renders it, by heading.
    static func sections(in directory: TemporaryDirectory) async throws -> [String: String] {
        let manual = try await BinaryRunner.run(["manual"], in: directory.url)
        let page = try directory.write("assemblyline.1", manual.stdout).path
        let rendered = try await BinaryRunner.run(["-man", "-Tutf8", "-ww", "-P-cbou", page], in: directory.url,
                                                  executable: URL(fileURLWithPath: "/usr/bin/groff"))
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        var sections: [String: String] = [:]
        var heading = ""
        for line in rendered.stdout.replacingOccurrences(of: "\u{2010}\n", with: "").split(separator: "\n") {
            if line.first?.isUppercase == true, line.allSatisfy({ $0.isUppercase || $0 == " " }) {
                heading = String(line)
            } else {
                sections[heading, default: ""] += " " + line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
        }
        return sections
    }

    /// Every variable named in the sources (`environment["NAME"]`, `variable = "NAME"`), which ENVIRONMENT must list.
    static func variablesRead() throws -> Set<String> {
        let sources = HTMLReportTests.root.appendingPathComponent("Sources")
        var names: Set<String> = []
        for path in FileManager.default.subpaths(atPath: sources.path) ?? [] where path.hasSuffix(".swift") && !path.hasPrefix("TestSupport/") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in text.matches(of: /environment\["([A-Z_]+)"\]|static let variable = "([A-Z_]+)"/) {
                if let name = match.output.1 ?? match.output.2 { names.insert(String(name)) }
            }
        }
        return names
    }

    @Test func filesEnvironmentAndExamplesSayWhatTheToolKeepsAndReads() async throws {
        let directory = try TemporaryDirectory()
        let sections = try await Self.sections(in: directory)
        let files = try #require(sections["FILES"]), environment = try #require(sections["ENVIRONMENT"])
        let examples = try #require(sections["EXAMPLES"])
        for path in ["STATE_DIR/ledger.sqlite", "STATE_DIR/locks/*.lock", "$XDG_STATE_HOME/assemblyline/runs.tsv",
                     "STATE_DIR/embedded-service/", "./serve-data/"] {
            #expect(files.contains(path), "FILES names \(path): \(files)")
        }
        let variables = try Self.variablesRead()
        #expect(variables.isSuperset(of: ["XDG_STATE_HOME", "HOME", "TMPDIR", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]), "\(variables)")
        for variable in variables {
            #expect(environment.contains(variable), "ENVIRONMENT names \(variable): \(environment)")
        }
        #expect(examples.contains("assemblyline run /etc/assemblyline/nightly.yaml --quiet"), "\(examples)")
        let order = ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"]
        let manual = try await BinaryRunner.run(["manual"], in: directory.url).stdout
        let positions = order.compactMap { manual.range(of: ".SH \($0)")?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted(), "the sections in man-pages(7)'s order")
    }
}
