import Foundation
import Synchronization

extension Manifest {
    /// The planner of the manifest's inputs and shard limits: what `plan` shows is what `run` sends.
    package var planner: Planner {
        Planner(include: inputs.include, exclude: inputs.exclude, base: inputs.base, limits: shards)
    }

    /// Plans the inputs (of its ``partition`` alone; the outputs are checked over the whole batch too): its files walked or,
    /// through `remote`, its bucket listed (`inputs.s3`) or its list of URLs read (`inputs.urls`). A plan in which the
    /// layout gives two inputs one output path is refused; an input whose output no file can have (a name over 255 bytes,
    /// a path over 4,095) is a warning, since a run fails it alone before sending it. For a night `sendingEveryFile` (no
    /// done index to read, or `--force`) of the whole batch, the walk asks each file whether it can be read as it finds
    /// it (``Planner/asksReadabilityInWalk``).
    ///
    /// Each input's path is rendered for every step whose results are downloaded (for a Template,
    /// whose steps are not known here, once) by the run's own function (``ResultMapper/outputPath(_:run:shard:step:from:)``),
    /// so that the paths checked are the paths written. Paths are compared
    /// by a 64-bit hash, and a match is confirmed on the paths, so that a million inputs need no
    /// million paths in memory.
    /// - Throws: ``PlanError/sharedOutput(output:first:second:others:)`` naming the first two inputs of a shared path, the
    ///   planner's errors, ``S3ListingError`` when the listing fails, or ``URLListError`` when the list cannot be read.
    package func planInputs(remote: any RemoteInputAccess, sendingEveryFile: Bool = false) async throws -> PlanResult {
        try checked(await findInputs(remote: remote, walkAsksReadability: sendingEveryFile && partition.isWhole && onlyFiles == nil))
    }

    /// The manifest's inputs as found, whole (no partition, no `--files-from`) and unchecked: its files walked, its bucket
    /// listed, or its list of URLs read; `walkAsksReadability`: as ``Planner/asksReadabilityInWalk``.
    package func findInputs(remote: any RemoteInputAccess, walkAsksReadability: Bool = false) async throws -> PlanResult {
        if let list = inputs.urlList {
            let planner = URLListPlanner(list: list, include: inputs.include, exclude: inputs.exclude, limits: shards, endpoint: endpoint)
            return try await planner.plan(probingWith: remote)
        }
        guard let bucket = inputs.bucket else {
            var planner = planner
            planner.asksReadabilityInWalk = walkAsksReadability
            return try planner.plan()
        }
        let planner = BucketPlanner(bucket: bucket, include: inputs.include, exclude: inputs.exclude, limits: shards)
        return try await planner.plan(listingWith: remote.bucketLister(for: bucket))
    }

    /// `result` cut to the manifest's partition and `--files-from`, its outputs checked (see ``planInputs(remote:)``).
    private func checked(_ planned: PlanResult) throws(PlanError) -> PlanResult {
        var result = planned
        var tooLong = try checkOutputs(of: result.plan)
        if !partition.isWhole || onlyFiles != nil {
            // The whole batch was checked, for outputs shared across partitions; the part is checked as its shards write it.
            let whole = result.plan
            result.plan = whole.resharded(limits: shards) { _, file in
                partition.contains(file.relativePath) && onlyFiles?.contains(PathKey(file.relativePath)) != false
            }
            tooLong = try checkOutputs(of: result.plan)
            if let onlyFiles, let warning = Self.unplanned(onlyFiles, among: whole.shards.flatMap(\.files)) { result.warnings.append(warning) }
        }
        if let (input, output, problem, count) = tooLong {
            let more = count > 1 ? " (and \(CountText.of(count - 1, "more such input")))" : ""
            let warning = PlanWarning(path: input.path, problem: "its output \(output) cannot be created: \(problem)\(more); a run "
                + "fails it alone, unsent (\(FailureCode.outputNameTooLong)); shorter names or fewer folders avoid it "
                + "(rename the input, or use {stem} or {dir} in output.layout)")
            result.warnings.insert(warning, at: result.warnings.firstIndex { PathText.precedes(input.path, $0.path) } ?? result.warnings.endIndex)
        }
        return result
    }

    /// A warning naming the first of `names` no input of the plan has (sorted by bytes), and how many there are; nil when each is one.
    private static func unplanned(_ names: Set<PathKey>, among files: [PlannedFile]) -> PlanWarning? {
        let planned = Set(files.lazy.map { PathKey($0.relativePath) })
        let strangers = names.subtracting(planned).map(\.path).sorted { PathText.precedes($0, $1) }
        guard let first = strangers.first else { return nil }
        let more = strangers.count > 1 ? " (and \(CountText.of(strangers.count - 1, "more name")))" : ""
        return PlanWarning(path: first, problem: "named by --files-from but no input of the manifest (missing, or outside its globs)\(more)")
    }

    /// An input whose output no file can have, with the output, the problem and how many such inputs there are.
    private typealias TooLong = (input: PlannedFile, output: String, problem: String, count: Int)

    /// Throws when two inputs of `plan` share an output path; gives the first input whose output no file can have, with how many.
    ///
    /// The output paths are rendered and hashed on every core, a run of shards a thread; their hashes are then compared
    /// on this one, and only two inputs of one hash have their paths rendered again and compared.
    private func checkOutputs(of plan: Plan) throws(PlanError) -> TooLong? {
        let steps = output.downloadedSteps
        let run = RunID.layoutCheck
        let shards = plan.shards
        let stripes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, shards.count / 64))
        let bounds = (0...stripes).map { $0 * shards.count / stripes }
        let rendered = Mutex<[Int: (hashes: [UInt64], tooLong: TooLong?)]>([:])
        DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
            var hashes: [UInt64] = [], tooLong: TooLong?
            for shard in shards[bounds[stripe]..<bounds[stripe + 1]] {
                for file in shard.files {
                    var fits = true
                    for step in steps {
                        let path = outputPath(of: file, shard: shard.index, step: step, run: run)
                        if fits, let problem = PathText.lengthProblem(of: path) {
                            fits = false
                            tooLong = tooLong.map { ($0.input, $0.output, $0.problem, $0.count + 1) } ?? (file, path, problem, 1)
                        }
                        hashes.append(FNVHash.of(path))
                    }
                }
            }
            rendered.withLock { $0[stripe] = (hashes, tooLong) }
        }
        let stripesRendered = rendered.withLock { $0 }
        // The first input of each path hash, as its shard and position in it (32 bits each).
        var seen: [UInt64: UInt64] = [:]
        seen.reserveCapacity(shards.reduce(0) { $0 + $1.files.count } * steps.count)
        var clash: (output: String, first: PlannedFile, second: PlannedFile)?
        var others = 0
        var tooLong: TooLong?
        for stripe in 0..<stripes {
            guard let (hashes, stripeTooLong) = stripesRendered[stripe] else { continue }
            if let found = stripeTooLong {
                tooLong = tooLong.map { ($0.input, $0.output, $0.problem, $0.count + found.count) } ?? found
            }
            var next = 0
            for shardIndex in bounds[stripe]..<bounds[stripe + 1] {
                // By position: a file is looked at only when its hash was seen (a pass copying each file cost a retain of its paths).
                for position in shards[shardIndex].files.indices {
                    for step in steps {
                        let key = hashes[next]
                        next += 1
                        guard let earlierPlace = seen[key] else {
                            seen[key] = UInt64(shards[shardIndex].index) << 32 | UInt64(position)
                            continue
                        }
                        let shard = shards[shardIndex], file = shard.files[position]
                        let earlierShard = Int(earlierPlace >> 32)
                        let earlier = shards[earlierShard].files[Int(earlierPlace & 0xFFFF_FFFF)]
                        let path = outputPath(of: file, shard: shard.index, step: step, run: run)
                        guard earlier != file,
                              PathText.same(outputPath(of: earlier, shard: earlierShard, step: step, run: run), path) else { continue }
                        if clash == nil { clash = (path, earlier, file) } else { others += 1 }
                    }
                }
            }
        }
        if let clash {
            throw .sharedOutput(output: clash.output, first: clash.first.relativePath, second: clash.second.relativePath, others: others)
        }
        return tooLong
    }

    private func outputPath(of file: PlannedFile, shard: Int, step: String, run: RunID) -> String {
        ResultMapper.outputPath(output, run: run, shard: shard, step: step, from: .input(file))
    }
}
