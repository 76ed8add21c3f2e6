/// Turns include and exclude globs into the plan of a run: the matching files, de-duplicated, sorted and sharded.
///
/// The result depends only on the file system and the inputs, never on the order `readdir` lists
/// names in, so a run and its resume agree:
/// - files are de-duplicated by real path; of several paths to one file (symlinks) the one
///   sorting first is kept;
/// - files are sorted byte-wise by their path relative to `base`, then by real path;
/// - shards are filled in that order (`Plan.init(sharding:limits:)`).
///
/// ```swift
/// let planner = try Planner(
///     include: [GlobPattern("photos/**/*.jpg", relativeTo: manifestDirectory)],
///     base: manifestDirectory + "/photos",
///     limits: ShardLimits(maxFiles: 50))
/// let result = try planner.plan()
/// ```
public struct Planner: Sendable {
    /// Absolute patterns selecting the input files.
    public var include: [GlobPattern]
    /// Absolute patterns of files and directories to leave out.
    public var exclude: [GlobPattern]
    /// The absolute directory that outputs mirror input paths relative to.
    public var base: String
    public var limits: ShardLimits

    public init(include: [GlobPattern], exclude: [GlobPattern] = [], base: String, limits: ShardLimits = ShardLimits()) {
        self.include = include
        self.exclude = exclude
        self.base = base
        self.limits = limits
    }

    /// Walks the file system and makes the plan.
    ///
    /// - Returns: the plan and the entries that could not be read (the plan is made without them).
    /// - Throws: `PlanError.noMatch` naming the include patterns when no file matches;
    ///   `.outsideBase` naming the first (by path) matched file not under `base`; `.relativePattern`,
    ///   `.relativeBase`, `.noIncludePatterns` or `.invalidLimit` for unusable inputs.
    public func plan() throws(PlanError) -> PlanResult {
        guard !include.isEmpty else { throw PlanError.noIncludePatterns }
        guard base.utf8.first == UInt8(ascii: "/") else { throw PlanError.relativeBase(base: base) }
        try limits.validate()
        let walker = try DirectoryWalker(include: include, exclude: exclude)
        let base = PathText.normalizedAbsolute(base)

        var files: [PlannedFile] = []
        var firstOutside: String?
        var outsideCount = 0
        let warnings = walker.walk { found in
            guard let relativePath = PathText.relative(found.path, to: base) else {
                outsideCount += 1
                if firstOutside.map({ PathText.precedes(found.path, $0) }) ?? true { firstOutside = found.path }
                return
            }
            files.append(PlannedFile(
                path: found.realPath, relativePath: relativePath,
                size: found.size, modifiedNanoseconds: found.modifiedNanoseconds))
        }
        if let firstOutside {
            throw PlanError.outsideBase(path: firstOutside, base: base, others: outsideCount - 1)
        }
        guard !files.isEmpty else {
            throw PlanError.noMatch(patterns: include.map(\.description))
        }
        return PlanResult(plan: Plan(sharding: Self.ordered(files), limits: limits), warnings: warnings)
    }

    /// One entry per real path (the first by relative path), sorted by relative path, then real path.
    static func ordered(_ files: [PlannedFile]) -> [PlannedFile] {
        let byRealPath = files.sorted {
            PathText.same($0.path, $1.path)
                ? PathText.precedes($0.relativePath, $1.relativePath)
                : PathText.precedes($0.path, $1.path)
        }
        var unique: [PlannedFile] = []
        unique.reserveCapacity(byRealPath.count)
        for file in byRealPath where !(unique.last.map { PathText.same($0.path, file.path) } ?? false) {
            unique.append(file)
        }
        return unique.sorted {
            PathText.same($0.relativePath, $1.relativePath)
                ? PathText.precedes($0.path, $1.path)
                : PathText.precedes($0.relativePath, $1.relativePath)
        }
    }
}
