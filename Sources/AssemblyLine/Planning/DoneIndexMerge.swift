/// The reading of a night's done index against its plan, set by set and page by page, in path order: what
/// ``IncrementalPlan`` is made of.
///
/// Each row of a page meets the plan's file of the same identity, if there is one. A file met by a row of the
/// own recipe's set (or of an accepted earlier recipe's) has its outputs checked, a page's files at once on
/// every core, and is skipped or done again; a row that meets no file, or whose file is done again, is missed
/// by the review. A row of a later set meeting a file an earlier set settled is the same file again and only
/// marks it held by an earlier recipe. The next pages are read while a page's outputs are checked (``DoneIndexReadAhead``). Per planned
/// file this holds one byte of standing; the index is never held whole.
struct DoneIndexMerge {
    /// What the night made of a planned file.
    struct Standing: OptionSet, Hashable {
        let rawValue: UInt8
        static let skipped = Standing(rawValue: 1)
        static let redone = Standing(rawValue: 2)
        /// A set of the job's earlier recipe holds the file.
        static let heldEarlier = Standing(rawValue: 4)
    }

    private let plan: Plan
    /// The position of each shard's first file.
    private let starts: [Int]
    /// The positions in path order; nil when the plan's order is path order (a tree walked without symlinks).
    private let pathOrder: [Int32]?
    private let check: OutputCheck
    private(set) var standing: [Standing]
    private(set) var missed: [Int64] = []
    private(set) var regained: [Int64] = []
    /// The files done again, by position, with what is wrong with their outputs.
    private(set) var redone: [(position: Int, findings: [OutputCheck.Finding])] = []
    private(set) var skippedCount = 0
    /// Of the files skipped, those an accepted earlier recipe's entry let skip.
    private(set) var carried = 0

    init(plan: Plan, check: OutputCheck) {
        self.plan = plan
        self.check = check
        var starts: [Int] = [], count = 0
        starts.reserveCapacity(plan.shards.count)
        for shard in plan.shards {
            starts.append(count)
            count += shard.files.count
        }
        self.starts = starts
        standing = [Standing](repeating: [], count: count)
        pathOrder = Self.pathOrder(of: plan, count: count)
    }

    /// The planned file at `position` (counted over the shards in order).
    func file(at position: Int) -> PlannedFile {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return plan.shards[low].files[position - starts[low]]
    }

    /// Reads every page of `set` from `index` and settles the files its rows meet.
    mutating func read(_ set: DoneIndexSet, from index: any DoneIndexPages, pageSize: Int) async throws {
        var next = 0
        let pages = DoneIndexReadAhead(set: set, index: index, pageSize: pageSize, md5s: check.checksums)
        try await pages.forEachPage { page in
            var checking: [(position: Int, row: Int)] = []
            for (rowIndex, row) in page.enumerated() {
                var order = orderInPathOrder(next, against: row.identity)
                while order < 0 {
                    next += 1
                    order = orderInPathOrder(next, against: row.identity)
                }
                guard order == 0 else {
                    if set.role != .earlier, !row.file.missed { missed.append(row.file.entry) }
                    continue
                }
                let position = pathOrder.map { Int($0[next]) } ?? next
                next += 1
                if needsCheck(position, by: set) { checking.append((position, rowIndex)) }
            }
            let findings = check.findings(ofEach: checking.map { page[$0.row].file.outputs })
            for (index, (position, row)) in checking.enumerated() {
                settle(position, row: page[row], findings: findings[index] ?? [], by: set)
            }
        }
    }

    /// Whether the file at `position`, met by a row of `set`, is to be checked: not when an earlier set settled it or the set only counts it.
    private mutating func needsCheck(_ position: Int, by set: DoneIndexSet) -> Bool {
        let settled = !standing[position].isDisjoint(with: [.skipped, .redone])
        guard settled || set.role == .earlier else { return true }
        if set.role != .own { standing[position].insert(.heldEarlier) }
        return false
    }

    /// Skips the file at `position` when its outputs were found in place, or runs it again.
    private mutating func settle(_ position: Int, row: DoneIndexRow, findings: [OutputCheck.Finding], by set: DoneIndexSet) {
        if set.role == .accepted { standing[position].insert(.heldEarlier) }
        if findings.isEmpty {
            standing[position].insert(.skipped)
            skippedCount += 1
            if set.role == .accepted { carried += 1 }
            if row.file.missed { regained.append(row.file.entry) }
        } else {
            standing[position].insert(.redone)
            redone.append((position, findings))
            if !row.file.missed { missed.append(row.file.entry) }
        }
    }

    /// How the file `rank`th in path order sorts against `identity`, as ``FileIdentity/order(_:_:)``; past the last, after it.
    private func orderInPathOrder(_ rank: Int, against identity: FileIdentity) -> Int {
        guard rank < standing.count else { return 1 }
        return FileIdentity.order(file(at: pathOrder.map { Int($0[rank]) } ?? rank), identity)
    }

    /// The positions of `plan`'s files sorted by real path; nil when they are in that order already. Sorting holds every
    /// real path for a moment (a tree with symlinks in it, a URL list); a plain tree's plan is in path order.
    private static func pathOrder(of plan: Plan, count: Int) -> [Int32]? {
        // By position, each file compared in place with the one before (a copy of each would retain its paths).
        var previous: (shard: Int, file: Int)?
        var ordered = true
        all: for shard in plan.shards.indices {
            for file in plan.shards[shard].files.indices {
                if let previous, PlannedFile.comparePaths(plan.shards[previous.shard].files[previous.file], plan.shards[shard].files[file]) >= 0 {
                    ordered = false
                    break all
                }
                previous = (shard, file)
            }
        }
        guard !ordered else { return nil }
        let paths = plan.shards.flatMap { $0.files.map(\.path) }
        return (0..<Int32(count)).sorted { PathText.precedes(paths[Int($0)], paths[Int($1)]) }
    }
}
