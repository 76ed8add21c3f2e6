import AssemblyLine
import Foundation

/// `--partition I/N|auto[/N]` and `--batch ID`: which part of a night's batch a command takes (run, plan, resume).
///
/// `auto` reads the part from the scheduler: `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job), else
/// `SLURM_ARRAY_TASK_ID` made 0-based as (ID − `SLURM_ARRAY_TASK_MIN`) / `SLURM_ARRAY_TASK_STEP`; N comes
/// from `auto/N`, else `SLURM_ARRAY_TASK_COUNT`. A part that cannot be known is a usage error (64),
/// before anything is read or sent.
struct PartitionOptions: Sendable {
    static let specs = [
        OptionSpec(name: "partition", valueName: "I/N",
                   help: "Take part I (0-based) of the files split N ways by their relative paths; auto[/N] reads I (and N) from Kubernetes or Slurm."),
        OptionSpec(name: "batch", valueName: "id", help: "The batch this run belongs to (default: the manifest's name and the UTC date)."),
    ]

    /// nil without `--partition`.
    var partition: Partition?
    /// nil without `--batch`: the run's own start then names it (``RunSession``).
    var batch: BatchID?

    init(_ values: ParsedValues, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        partition = try values.option("partition").map { try Self.partition($0, environment: environment) }
        batch = try values.option("batch").map { text in
            guard let batch = BatchID(rawValue: text) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(text)'") }
            return batch
        }
    }

    /// Whether `--partition` or `--batch` was given: a run then resumes its batch's unfinished run of the same part.
    var isGiven: Bool { partition != nil || batch != nil }

    /// The manifest at `path` as this part runs it, and its state directory (`stateDir`, else the manifest's), where
    /// the outputs go too unless the manifest names `output.dir` (``Manifest/inStateDirectory(_:)``).
    ///
    /// - Throws: ``UsageError`` when the manifest names `{partition}` (in `state_dir` with no `stateDir` given,
    ///   or in `output.dir`) and no `--partition` was given.
    func manifest(_ path: String, stateDir: String?) throws -> (manifest: Manifest, stateDirectory: String) {
        var manifest = try ConfigFileLoader.manifest(path)
        if let partition {
            manifest = manifest.partitioned(partition)
        } else if let field = manifest.fieldsNamingPartition.first(where: { stateDir == nil || $0 != "state_dir" }) {
            throw UsageError("\(path): \(field) names \(Manifest.partitionPlaceholder): give --partition I/N (or auto/N) to say which part this is")
        }
        let directory = (stateDir.map { PathText.resolve($0, against: FileManager.default.currentDirectoryPath) } ?? manifest.stateDir)
            .replacingOccurrences(of: Manifest.partitionPlaceholder, with: String(manifest.partition.index))
        return (manifest.inStateDirectory(directory), directory)
    }

    /// The partition `text` names: `I/N`, or `auto`/`auto/N` read from `environment`.
    static func partition(_ text: String, environment: [String: String]) throws -> Partition {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let expected = "I/N with 0 <= I < N <= \(Partition.maxCount), or auto/N"
        guard parts.count <= 2, let first = parts.first else { throw UsageError("--partition: expected \(expected), found '\(text)'") }
        let count: Int? = try parts.count == 2 ? number(parts[1], "N", of: text, expected: expected) : nil
        let index: Int
        if first == "auto" {
            index = try scheduledIndex(environment)
        } else {
            guard count != nil else { throw UsageError("--partition: expected \(expected), found '\(text)'") }
            if let partition = Partition(text: text) { return partition }
            index = try number(first, "I", of: text, expected: expected)
        }
        guard let total = count ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }) else {
            throw UsageError("--partition \(text): N is not known: give auto/N (a Kubernetes Indexed Job's completions), "
                + "or run in a Slurm array (SLURM_ARRAY_TASK_COUNT)")
        }
        guard let partition = Partition(index: index, count: total) else {
            throw UsageError("--partition \(text): part \(index) of \(total) does not exist; expected \(expected)")
        }
        return partition
    }

    /// The 0-based part a Kubernetes Indexed Job or a Slurm array task is.
    private static func scheduledIndex(_ environment: [String: String]) throws -> Int {
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text), index >= 0 else { throw UsageError("--partition auto: JOB_COMPLETION_INDEX is '\(text)', expected 0 or more") }
            return index
        }
        guard let text = environment["SLURM_ARRAY_TASK_ID"] else {
            throw UsageError("--partition auto: neither JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (a Slurm array) is set")
        }
        let values = ["SLURM_ARRAY_TASK_ID": text, "SLURM_ARRAY_TASK_MIN": environment["SLURM_ARRAY_TASK_MIN"] ?? "0",
                      "SLURM_ARRAY_TASK_STEP": environment["SLURM_ARRAY_TASK_STEP"] ?? "1"]
        let numbers = try values.mapValues { value in
            guard let number = Int(value), number >= 0 else { throw UsageError("--partition auto: '\(value)' in the Slurm array's variables, expected 0 or more") }
            return number
        }
        let (id, low, step) = (numbers["SLURM_ARRAY_TASK_ID"] ?? 0, numbers["SLURM_ARRAY_TASK_MIN"] ?? 0, max(1, numbers["SLURM_ARRAY_TASK_STEP"] ?? 1))
        guard id >= low, (id - low) % step == 0 else {
            throw UsageError("--partition auto: SLURM_ARRAY_TASK_ID \(id) is not SLURM_ARRAY_TASK_MIN \(low) plus a multiple of SLURM_ARRAY_TASK_STEP \(step)")
        }
        return (id - low) / step
    }

    private static func number(_ text: String, _ name: String, of whole: String, expected: String) throws -> Int {
        guard let value = Int(text), text.allSatisfy(\.isASCIIDigit) else {
            throw UsageError("--partition: \(name) in '\(whole)' is not a number; expected \(expected)")
        }
        return value
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
