import Foundation
import TestSupport
import Testing

/// The completion script, sourced into a real bash, completes subcommands and each one's options.
@Suite(.timeLimit(.minutes(3))) struct CompletionCommandTests {
    /// What bash's `COMPREPLY` holds for `words`, with the last one being completed.
    static func completions(_ words: [String], script: String, in directory: TemporaryDirectory) async throws -> [String] {
        let path = try directory.write("completion.bash", script).path
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = "source \(path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _assemblyline; printf '%s\\n' \"${COMPREPLY[@]}\""
        let outcome = try await BinaryRunner.run(["-c", program], in: directory.url, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsAndTheirOptions() async throws {
        let directory = try TemporaryDirectory()
        let script = try await BinaryRunner.run(["completion", "bash"], in: directory.url)
        #expect(script.status == 0, "\(script.stderr)")
        #expect(try await Self.completions(["assemblyline", "re"], script: script.stdout, in: directory) == ["resume", "report"])
        #expect(try await Self.completions(["assemblyline", "run", "--ch"], script: script.stdout, in: directory) == ["--checksum"])
        #expect(try await Self.completions(["assemblyline", "run", "-"], script: script.stdout, in: directory).contains("-q"))
        try directory.write("nightly.yaml", "")
        #expect(try await Self.completions(["assemblyline", "validate", "night"], script: script.stdout, in: directory) == ["nightly.yaml"])
        let zsh = try await BinaryRunner.run(["completion", "zsh"], in: directory.url)
        #expect(zsh.stdout.hasPrefix("autoload -U +X bashcompinit && bashcompinit\n") && zsh.stdout.hasSuffix(script.stdout))
        #expect(try await BinaryRunner.run(["completion", "tcsh"], in: directory.url).status == 64)
    }

    /// What fish completes for `line` (its candidates, without their descriptions), with the script loaded into a real fish.
    static func fishCompletions(_ line: String, script: String, in directory: TemporaryDirectory) async throws -> [String] {
        let path = try directory.write("assemblyline.fish", script).path
        let outcome = try await BinaryRunner.run(["--no-config", "-c", "source \(path); complete -C '\(line)'"], in: directory.url,
                                                 environment: ["HOME": directory.url.path], executable: URL(fileURLWithPath: "/usr/bin/fish"))
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test func fishCompletesSubcommandsTheirOptionsAndFileNames() async throws {
        let directory = try TemporaryDirectory()
        let script = try await BinaryRunner.run(["completion", "fish"], in: directory.url)
        #expect(script.status == 0 && script.stdout.hasPrefix("# assemblyline completion for fish"), "\(script.stderr)")
        #expect(try await Self.fishCompletions("assemblyline re", script: script.stdout, in: directory) == ["report", "resume"])
        #expect(try await Self.fishCompletions("assemblyline run --ch", script: script.stdout, in: directory) == ["--checksum"])
        #expect(try await Self.fishCompletions("assemblyline run -", script: script.stdout, in: directory).contains("-q"))
        #expect(try await Self.fishCompletions("assemblyline completion ", script: script.stdout, in: directory) == ["bash", "fish", "zsh"])
        try directory.write("nightly.yaml", "")
        #expect(try await Self.fishCompletions("assemblyline validate night", script: script.stdout, in: directory) == ["nightly.yaml"])
        #expect(try await Self.fishCompletions("assemblyline report --output night", script: script.stdout, in: directory) == ["nightly.yaml"])
    }
}
