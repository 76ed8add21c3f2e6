import ConfigFormat

extension Manifest {
    /// The planner of the manifest's inputs and shard limits: what `plan` shows is what `run` sends.
    package var planner: Planner {
        Planner(include: inputs.include, exclude: inputs.exclude, base: inputs.base, limits: shards)
    }

    /// Plans the inputs, and refuses a plan in which the layout gives two inputs one output path, or an
    /// input a path no file can have (a name over 255 bytes, a path over 4,095).
    ///
    /// Each input's path is rendered for every step whose results are downloaded (for a Template,
    /// whose steps are not known here, once) by the run's own function (``ResultMapper/outputPath(_:run:shard:step:from:)``),
    /// so that the paths checked are the paths written. Paths are compared
    /// by a 64-bit hash, and a match is confirmed on the paths, so that a million inputs need no
    /// million paths in memory.
    /// - Throws: ``PlanError/sharedOutput(output:first:second:others:)`` naming the first two
    ///   inputs of a shared path, or the planner's errors.
    package func plan() throws(PlanError) -> PlanResult {
        let result = try planner.plan()
        let steps = knownStepsDownloaded()
        let run = RunID.layoutCheck
        let shards = result.plan.shards
        // The first input of each path hash, as its shard and position in it (32 bits each).
        var seen: [UInt64: UInt64] = [:]
        seen.reserveCapacity(shards.reduce(0) { $0 + $1.files.count } * steps.count)
        var clash: (output: String, first: PlannedFile, second: PlannedFile)?
        var others = 0
        var tooLong: (input: PlannedFile, output: String, problem: String)?
        var longOthers = 0
        for shard in shards {
            for (position, file) in shard.files.enumerated() {
                for step in steps {
                    let path = outputPath(of: file, shard: shard.index, step: step, run: run)
                    if let problem = PathText.lengthProblem(of: path) {
                        if tooLong == nil { tooLong = (file, path, problem) } else { longOthers += 1 }
                    }
                    let key = FNVHash.of(path)
                    guard let earlierPlace = seen[key] else {
                        seen[key] = UInt64(shard.index) << 32 | UInt64(position)
                        continue
                    }
                    let earlierShard = Int(earlierPlace >> 32)
                    let earlier = shards[earlierShard].files[Int(earlierPlace & 0xFFFF_FFFF)]
                    guard earlier != file,
                          PathText.same(outputPath(of: earlier, shard: earlierShard, step: step, run: run), path) else { continue }
                    if clash == nil { clash = (path, earlier, file) } else { others += 1 }
                }
            }
        }
        if let tooLong {
            throw .outputTooLong(input: tooLong.input.relativePath, output: tooLong.output, problem: tooLong.problem, others: longOthers)
        }
        if let clash {
            throw .sharedOutput(output: clash.output, first: clash.first.relativePath, second: clash.second.relativePath, others: others)
        }
        return result
    }

    /// The steps with downloaded results; one nameless step for a Template.
    ///
    /// A step has results when it says `result: true` or no other step uses it (Transloadit's rule).
    private func knownStepsDownloaded() -> [String] {
        guard let steps = recipe.knownSteps?.objectValue else { return ["result"] }
        let used = Set(steps.values.flatMap { Self.names(in: $0.objectValue?["use"]) })
        return steps.keys.sorted().filter { name in
            let step = steps[name]?.objectValue
            return output.steps.delivery(ofStep: name) == .download && (step?["result"] == .bool(true) || !used.contains(name))
        }
    }

    /// Every string in a `use` value: a name, a list of names, or objects naming steps.
    private static func names(in use: JSONValue?) -> [String] {
        switch use {
        case .string(let name)?: [name]
        case .array(let items)?: items.flatMap { names(in: $0) }
        case .object(let members)?: members.values.flatMap { names(in: $0) }
        default: []
        }
    }

    private func outputPath(of file: PlannedFile, shard: Int, step: String, run: RunID) -> String {
        ResultMapper.outputPath(output, run: run, shard: shard, step: step, from: .input(file))
    }
}
