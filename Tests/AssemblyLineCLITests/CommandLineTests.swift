import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct CommandLineTests {
    @Test func versionPrintsTheVersion() async throws {
        let outcome = try await BinaryRunner.run(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(outcome.stdout)")
        let commit = lines[0].components(separatedBy: "(commit ").last?.dropLast() ?? ""
        #expect(lines[0].hasPrefix("assemblyline 0.1.0 (commit ") && lines[0].hasSuffix(")"))
        #expect(commit == "unknown" || (commit.prefix(12).allSatisfy(\.isHexDigit) && [12, 18].contains(commit.count)), "\(commit)")
        for library in ["Swift 6.", "libcurl/", "OpenSSL ", "SQLite 3.", "libyaml 0.", "libmicrohttpd ", "libvips 8."] {
            #expect(lines[1].contains(library), "\(library) in \(lines[1])")
        }
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func rootHelpListsTheSubcommands(arguments: [String]) async throws {
        let outcome = try await BinaryRunner.run(arguments, in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("OVERVIEW: "))
        #expect(outcome.stdout.contains("USAGE: assemblyline <subcommand>"))
        #expect(outcome.stdout.contains("\n  validate                Check a manifest and report every error in it.\n"))
        #expect(outcome.stdout.hasSuffix("  See 'assemblyline help <subcommand>' for detailed help.\n"))
    }

    @Test func noSubcommandIsAUsageError() async throws {
        let outcome = try await BinaryRunner.run([], in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("OVERVIEW: "))
    }

    @Test func commandHelpIsTheSameFromEveryForm() async throws {
        let directory = FileManager.default.temporaryDirectory
        var forms: [BinaryRunner.Outcome] = []
        for form in [["validate", "--help"], ["validate", "-h"], ["help", "validate"]] {
            forms.append(try await BinaryRunner.run(form, in: directory))
        }
        #expect(forms.allSatisfy { $0.status == 0 })
        #expect(Set(forms.map(\.stdout)).count == 1)
        #expect(forms[0].stdout == """
            OVERVIEW: Check a manifest and report every error in it.

            Exits 0 when the manifest is valid, 65 with every error (file:line:column) when it is not, 78 when a secret or token it names (secret_env, secret_file, token_env, token_file) or the signer's ca_file cannot be read.

            USAGE: assemblyline validate <manifest>

            ARGUMENTS:
              <manifest>              The job manifest (YAML).

            OPTIONS:
              -h, --help              Show help information.

            """)
    }

    @Test func helpExplainsItselfToo() async throws {
        let outcome = try await BinaryRunner.run(["help", "help"], in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 0 && outcome.stdout.contains("USAGE: assemblyline help [<subcommand>]"), "\(outcome.stderr)")
    }

    @Test(arguments: [
        (["frobnicate"], "Error: unknown subcommand 'frobnicate'\n  See 'assemblyline --help' for the list of subcommands.\n"),
        (["validate"], "Error: missing expected argument '<manifest>'\nUsage: assemblyline validate <manifest>\n  See 'assemblyline validate --help' for more information.\n"),
        (["validate", "a.yaml", "b.yaml"], "Error: unexpected argument 'b.yaml'\nUsage: assemblyline validate <manifest>\n  See 'assemblyline validate --help' for more information.\n"),
        (["validate", "--bogus", "a.yaml"], "Error: unknown option '--bogus'\nUsage: assemblyline validate <manifest>\n  See 'assemblyline validate --help' for more information.\n"),
        (["help", "nope"], "Error: unknown subcommand 'nope'\n  See 'assemblyline --help' for the list of subcommands.\n"),
        (["reprot", "latest"], "Error: unknown subcommand 'reprot'; did you mean 'report'?\n  See 'assemblyline --help' for the list of subcommands.\n"),
        (["help", "valdiate"], "Error: unknown subcommand 'valdiate'; did you mean 'validate'?\n  See 'assemblyline --help' for the list of subcommands.\n"),
        (["validate", "--hlep"], "Error: unknown option '--hlep'; did you mean '--help'?\nUsage: assemblyline validate <manifest>\n"
            + "  See 'assemblyline validate --help' for more information.\n"),
        (["validate", "-help"], "Error: unknown option '-help'; did you mean '--help'?\nUsage: assemblyline validate <manifest>\n"
            + "  See 'assemblyline validate --help' for more information.\n"),
        (["sign-server"], "Error: missing '--policy <file>'\nUsage: assemblyline sign-server --policy <file> [--listen <host:port>] [--tls-cert <file>] [--tls-key <file>]\n"
            + "  See 'assemblyline sign-server --help' for more information.\n"),
    ])
    func usageErrorsExit64WithTheUsage(arguments: [String], stderr: String) async throws {
        let outcome = try await BinaryRunner.run(arguments, in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 64)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == stderr)
    }

    @Test func doubleDashEndsOptions() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("--odd.yaml", "version: 1\nname: odd\ninputs: {include: x}\nresize: {width: 5}\n")
        let outcome = try await BinaryRunner.run(["validate", "--", "--odd.yaml"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
