import AssemblyLine
import ConfigFormat

/// `assemblyline plan MANIFEST [--json]`: validates, expands the globs, shards, and prints the plan; writes nothing.
struct PlanCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the shards a manifest would run, without sending or writing anything.",
        discussion: "Expands the input globs, cuts the files into shards, and prints each shard's files and bytes and the totals. Unreadable entries are warnings on standard error; no match at all exits 65.",
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")],
        options: [OptionSpec(name: "json", help: "Print the plan, with every file, as JSON.")])

    var manifestPath: String
    var json: Bool

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
        json = values.flag("json")
    }

    func run(_ console: Console) async throws {
        let manifest = try ConfigFileLoader.manifest(manifestPath)
        let result = try manifest.planner.plan()
        for warning in result.warnings {
            console.error("warning: \(warning)\n")
        }
        console.out(json ? Self.json(result, manifest: manifest).serialized + "\n" : Self.table(result.plan, manifest: manifest))
    }

    static func table(_ plan: Plan, manifest: Manifest) -> String {
        var lines = ["plan of '\(manifest.name)': \(plan.fileCount) files, \(ByteCountText.format(plan.bytes)) in \(plan.shards.count) shards",
                     "  shard   files       bytes"]
        for shard in plan.shards {
            lines.append("  " + pad(String(shard.index), 5) + "  " + pad(String(shard.files.count), 6) + "  " + pad(ByteCountText.format(shard.bytes), 10))
        }
        let limit = manifest.shards
        lines.append("shards hold at most \(limit.maxFiles.map(String.init) ?? "any number of") files and \(limit.maxBytes.map(ByteCountText.format) ?? "any size"); a larger file is a shard of its own")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ result: PlanResult, manifest: Manifest) -> JSONValue {
        let shards = result.plan.shards.map { shard -> JSONValue in
            .object([
                "index": .integer(Int64(shard.index)),
                "bytes": .integer(shard.bytes),
                "files": .array(shard.files.map { file in
                    .object(["path": .string(file.path), "relative_path": .string(file.relativePath), "size": .integer(file.size)])
                }),
            ])
        }
        return .object([
            "name": .string(manifest.name),
            "manifest": .string(manifest.file),
            "files": .integer(Int64(result.plan.fileCount)),
            "bytes": .integer(result.plan.bytes),
            "shards": .array(shards),
            "warnings": .array(result.warnings.map { .object(["path": .string($0.path), "problem": .string($0.problem)]) }),
        ])
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
