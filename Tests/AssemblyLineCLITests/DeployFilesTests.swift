import ConfigFormat
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

    /// The command line as systemd expands it for the instance `nightly`: `%i`, `${ASSEMBLYLINE_STATE_DIR}` from the unit's
    /// `Environment=`, and `$ASSEMBLYLINE_ARGS`'s words (none when unset). Each names a state directory under
    /// `/var/lib/assemblyline`, which the service user owns, not the manifest's beside it in `/etc`.
    @Test(arguments: [("deploy/systemd/assemblyline@.service", ""), ("deploy/systemd/assemblyline@.service", "--partition 1/2"),
                      ("deploy/cron/assemblyline", "")])
    func theCommandLineIsOneTheBinaryTakes(file: String, partitionArguments: String) async throws {
        let text = try Self.text(file).replacingOccurrences(of: "%i", with: "nightly")
        let line = try #require(text.split(separator: "\n").first { $0.contains("/usr/local/bin/assemblyline ") })
        let environment = Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard line.hasPrefix("Environment=") else { return nil }
            let pair = line.dropFirst("Environment=".count).split(separator: "=", maxSplits: 1).map(String.init)
            return (pair[0], pair[1])
        }, uniquingKeysWith: { _, last in last })
        var arguments = try Self.arguments(in: String(line)).flatMap { word in
            word == "$ASSEMBLYLINE_ARGS" ? partitionArguments.split(separator: " ").map(String.init)
                : [word.hasPrefix("${") ? environment[String(word.dropFirst(2).dropLast())] ?? word : word]
        }
        #expect(arguments.first == "run" && arguments.contains("--quiet"), "\(arguments)")
        let stateDir = try #require(arguments.firstIndex(of: "--state-dir").map { arguments[$0 + 1] }, "\(arguments)")
        #expect(stateDir == "/var/lib/assemblyline/nightly")
        let directory = try await RunCommandTests.job()
        arguments[1] = "job/m.yaml"
        let dryRun = try await BinaryRunner.run(arguments + ["--dry-run"], in: directory.url)
        #expect(dryRun.status == 0, "\(arguments): \(dryRun.stderr)")
        #expect(partitionArguments.isEmpty || dryRun.stdout.contains("(partition 1/2)"), "\(dryRun.stdout)")
    }

    /// The venv's `kubernetes-validate` (`make test` installs it), which knows the schemas of Kubernetes 1.25 to 1.37 offline.
    static let kubernetesValidate = root.appendingPathComponent(".venv/bin/kubernetes-validate")

    @Test(arguments: ["assemblyline-job.yaml", "assemblyline-merge-job.yaml", "assemblyline-manifest.yaml", "assemblyline-state.yaml"])
    func theKubernetesObjectsAreValidAgainstTheSchemasStrictly(file: String) async throws {
        let path = Self.root.appendingPathComponent("deploy/kubernetes/\(file)").path
        let validated = try await BinaryRunner.run(["--strict", "--kubernetes-version", "1.33", path], in: Self.root, executable: Self.kubernetesValidate)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
    }

    @Test func aMisspeltFieldIsCaughtByTheSameValidation() async throws {
        let directory = try TemporaryDirectory()
        let job = try Self.text("deploy/kubernetes/assemblyline-job.yaml").replacingOccurrences(of: "backoffLimitPerIndex", with: "backoffLimitPerIndx")
        let path = try directory.write("job.yaml", job).path
        let validated = try await BinaryRunner.run(["--strict", "--kubernetes-version", "1.33", path], in: Self.root, executable: Self.kubernetesValidate)
        #expect(validated.status != 0, "strict validation caught nothing: \(validated.stdout)")
    }

    @Test func theIndexedJobRunsEachIndexsPartAndTheBinaryTakesItsCommandLine() async throws {
        let job = try Self.text("deploy/kubernetes/assemblyline-job.yaml")
        let completions = try #require(job.firstMatch(of: /completions: (\d+)/).map { String($0.1) })
        #expect(job.contains("completionMode: Indexed") && job.contains("\"--partition\", \"auto/\(completions)\""),
                "N given to --partition auto/N is the Job's completions")
        // The binary reads the index as a pod would: JOB_COMPLETION_INDEX.
        let directory = try await RunCommandTests.job()
        let plan = try await BinaryRunner.run(["plan", "job/m.yaml", "--partition", "auto/\(completions)"], in: directory.url,
                                              environment: ["JOB_COMPLETION_INDEX": "\(Int(completions)! - 1)"])
        #expect(plan.status == 0 && plan.stdout.contains("(partition \(Int(completions)! - 1)/\(completions))"), "\(plan.stdout)\(plan.stderr)")
    }

    @Test(arguments: ["deploy/slurm/assemblyline-array.sbatch", "deploy/slurm/assemblyline-merge.sbatch", "deploy/slurm/submit.sh"])
    func theSlurmScriptsParseAndPassShellcheck(file: String) async throws {
        let path = Self.root.appendingPathComponent(file).path
        let syntax = try await BinaryRunner.run(["-n", path], in: Self.root, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let lint = try await BinaryRunner.run(["--shell=bash", "--severity=style", path], in: Self.root,
                                              executable: URL(fileURLWithPath: "/usr/bin/shellcheck"))
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    @Test func theSlurmArrayTaskRunsItsPartAndTheMergeStepReportsTheBatch() async throws {
        // Given: the array task's script as Slurm would start task 3 of --array=1-3:2 (part 1 of 2), on the embedded service
        let directory = try await RunCommandTests.job()
        let task = ["ASSEMBLYLINE": BinaryRunner.binary.path, "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1",
                    "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_JOB_ID": "41"]
        let bash = URL(fileURLWithPath: "/bin/bash")

        // When: the task runs, then the merge step
        let part = try await BinaryRunner.run([Self.root.appendingPathComponent("deploy/slurm/assemblyline-array.sbatch").path, "job/m.yaml", "night-41"],
                                              in: directory.url, environment: task, executable: bash)
        let merge = try await BinaryRunner.run([Self.root.appendingPathComponent("deploy/slurm/assemblyline-merge.sbatch").path, "job/m.yaml", "night-41"],
                                               in: directory.url, environment: ["ASSEMBLYLINE": BinaryRunner.binary.path, "REPORT_DIR": directory.path],
                                               executable: bash)

        // Then: the part's run is of batch night-41, part 1/2; the merge wrote the JSON and names part 0 missing
        #expect(part.status == 0, "\(part.stdout)\(part.stderr)")
        #expect(merge.status == 0 && merge.stdout.hasPrefix("batch     night-41: 2 partitions, 1 finished, 1 missing (0)\n"), "\(merge.stdout)\(merge.stderr)")
        let report = try JSONValue(parsing: Array(try Data(contentsOf: directory.url.appendingPathComponent("night-41.json"))))
        #expect(report.objectValue?["missing"] == .array([.integer(0)]))
    }
}
