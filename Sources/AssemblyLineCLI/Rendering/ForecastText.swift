import AssemblyLine
import ConfigFormat
import Foundation

/// What `plan` and `run --dry-run` print of a forecast: a table, or JSON with every file.
struct ForecastText {
    let manifest: Manifest
    let forecast: RunForecast

    /// Prints the forecast's warnings to standard error and the forecast itself.
    static func show(_ forecast: RunForecast, of manifest: Manifest, json: Bool, console: Console) {
        for warning in forecast.planned.warnings {
            console.error("warning: \(warning)\n")
        }
        let text = ForecastText(manifest: manifest, forecast: forecast)
        console.out(json ? text.json.serialized + "\n" : text.table)
    }

    /// What a recipe change does to the night, in one line: what it makes again and how to accept it, or what it carries over.
    static func text(of change: RecipeChange) -> String {
        let since = "changed since run \(change.run)"
        guard change.accepted else {
            return "\(since): \(CountText.of(change.remade, "file")) done under its recipe \(change.remade == 1 ? "is" : "are") made again; "
                + "--accept-recipe counts them done when the change makes the same outputs"
        }
        return "\(since), accepted: \(CountText.of(change.carried, "file")) done under its recipe \(change.carried == 1 ? "counts" : "count") as done"
            + (change.remade > 0 ? ", \(change.remade) made again (their outputs are missing or changed)" : "")
    }

    /// Why a skipped file is skipped.
    var skipReason: String {
        "an earlier run did it; its outputs are in place (\(forecast.checksums ? "sizes and MD5s" : "sizes") checked)"
    }

    var table: String {
        let incremental = forecast.incremental
        let plan = incremental.plan
        let skipped = incremental.skippedCount
        let knownBad = incremental.knownBad.count
        let part = manifest.partition.isWhole ? "" : " (partition \(manifest.partition))"
        var lines = ["plan of '\(manifest.name)'\(part): \(CountText.of(plan.fileCount, "file")), \(ByteCountText.format(plan.bytes)) in \(CountText.of(plan.shards.count, "shard"))"
                        + (skipped > 0 ? "; \(skipped) skipped" : "") + (knownBad > 0 ? "; \(knownBad) known bad" : ""),
                     "  shard   files       bytes"]
        for shard in plan.shards {
            lines.append("  " + Self.pad(String(shard.index), 5) + "  " + Self.pad(String(shard.files.count), 6) + "  "
                         + Self.pad(ByteCountText.format(shard.bytes), 10))
        }
        if skipped > 0 {
            lines.append("skipped: \(CountText.of(skipped, "file")) \(skipReason); --force runs them")
        }
        if knownBad > 0 {
            lines.append("known bad: \(CountText.of(knownBad, "file")) an earlier run failed for a reason of their own, unchanged since; "
                + "--retry-failed sends them")
            for known in incremental.knownBad {
                lines.append("  \(known.file.relativePath): \(known.reason)")
            }
        }
        if !incremental.redone.isEmpty {
            lines.append("again: \(CountText.of(incremental.redone.count, "file")) done before whose outputs are missing or changed")
            for redone in incremental.redone {
                for finding in redone.findings {
                    lines.append("  \(redone.file.relativePath): \(finding.output.path) \(finding.problem)")
                }
            }
        }
        if let change = forecast.recipeChange {
            lines.append("recipe: " + Self.text(of: change))
        }
        lines.append("usage: \(Self.usage(forecast.usage))" + (manifest.maxUsage.map { ", limits.max_usage \(ByteCountText.format($0))" } ?? ""))
        let limit = manifest.shards
        lines.append("shards hold at most \(limit.maxFiles.map(String.init) ?? "any number of") files and \(limit.maxBytes.map(ByteCountText.format) ?? "any size"); a larger file is a shard of its own")
        return lines.joined(separator: "\n") + "\n"
    }

    var json: JSONValue {
        let incremental = forecast.incremental
        let plan = incremental.plan
        let shards = plan.shards.map { shard -> JSONValue in
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
            "partition": .string(manifest.partition.description),
            "files": .integer(Int64(plan.fileCount)),
            "bytes": .integer(plan.bytes),
            "shards": .array(shards),
            "skipped": .array(incremental.skipped(from: forecast.planned.plan).map { file in
                .object(["path": .string(file.path), "relative_path": .string(file.relativePath), "reason": .string(skipReason)])
            }),
            "known_bad": .array(incremental.knownBad.map { known in
                .object(["path": .string(known.file.path), "relative_path": .string(known.file.relativePath),
                         "code": .string(known.reason.code.rawValue), "message": .string(known.reason.message)])
            }),
            "again": .array(incremental.redone.map { redone in
                .object([
                    "path": .string(redone.file.path), "relative_path": .string(redone.file.relativePath),
                    "outputs": .array(redone.findings.map { finding in
                        .object(["output": .string(finding.output.path), "state": .string(finding.problem.kind),
                                 "detail": .string(finding.problem.description)])
                    }),
                ])
            }),
            "recipe_change": forecast.recipeChange.map { change in
                .object(["run": .string(change.run.rawValue), "accepted": .bool(change.accepted),
                         "remade": .integer(Int64(change.remade)), "carried": .integer(Int64(change.carried))])
            } ?? .null,
            "usage": .object([
                "bytes_to_send": .integer(forecast.usage.bytesToSend),
                "expected_usage_bytes": forecast.usage.expectedUsage.map { .integer($0) } ?? .null,
                "basis": forecast.usage.basis.map { basis in
                    .object(["runs": .integer(Int64(basis.runs)), "usage_bytes": .integer(basis.usageBytes), "input_bytes": .integer(basis.inputBytes)])
                } ?? .null,
                "max_usage_bytes": manifest.maxUsage.map { .integer($0) } ?? .null,
            ]),
            "warnings": .array(forecast.planned.warnings.map { .object(["path": .string($0.path), "problem": .string($0.problem)]) }),
        ])
    }

    /// The expected usage in GB with its basis: `about 1.2 GiB (4.0 GiB to send at 0.31 usage per input byte, as the last 3 runs cost)`,
    /// or that there is none yet.
    static func usage(_ forecast: UsageForecast) -> String {
        let send = ByteCountText.format(forecast.bytesToSend)
        guard let basis = forecast.basis, let expected = forecast.expectedUsage else {
            return "unknown (\(send) to send; no recent run of this recipe said its usage)"
        }
        return "about \(ByteCountText.format(expected)) (\(send) to send at \(String(format: "%.2f", basis.ratio)) usage per input byte, as "
            + "\(basis.runs == 1 ? "the last run" : "the last \(basis.runs) runs") of this recipe cost: \(ByteCountText.format(basis.usageBytes)) "
            + "for \(ByteCountText.format(basis.inputBytes)))"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
