#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns include and exclude globs into the plan of a run: the matching files, de-duplicated, sorted and sharded.
///
/// The result depends only on the file system and the inputs, never on the order `readdir` lists
/// names in, so a run and its resume agree:
/// - files are de-duplicated by real path; of several paths to one file (symlinks) the one whose
///   relative path sorts first is kept;
/// - files are sorted byte-wise by their path relative to `base`, then by real path;
/// - shards are filled in that order (`Plan.init(sharding:limits:)`).
///
/// Which directories are read, how hidden names, symlinks and unreadable entries are handled:
/// see `DirectoryWalker`, which walks on every core and makes each file's `PlannedFile` on the thread that
/// found it. Memory: the plan, plus an index of real paths while walking.
///
/// ```swift
/// let planner = try Planner(
///     include: [GlobPattern("photos/**/*.jpg", relativeTo: manifestDirectory)],
///     base: manifestDirectory + "/photos",
///     limits: ShardLimits(maxFiles: 50))
/// let result = try planner.plan()
/// ```
package struct Planner: Sendable {
    /// Absolute patterns selecting the input files.
    package var include: [GlobPattern]
    /// Absolute patterns of files and directories to leave out.
    package var exclude: [GlobPattern]
    /// The absolute directory that outputs mirror input paths relative to.
    package var base: String
    package var limits: ShardLimits
    /// Whether the walk asks each file whether this process may read it, as it finds it: for a night that sends every
    /// file walked (no done index to read, or `--force`); else the result's ``ReadabilityCheck`` is left for the files a
    /// night sends.
    package var asksReadabilityInWalk = false

    package init(include: [GlobPattern], exclude: [GlobPattern] = [], base: String, limits: ShardLimits = ShardLimits()) {
        self.include = include
        self.exclude = exclude
        self.base = base
        self.limits = limits
    }

    /// Walks the file system and makes the plan.
    ///
    /// - Returns: the plan, the entries that could not be read (the plan is made without them), and the check of its
    ///   files' readability, which a run asks of the files it sends (``ReadabilityCheck``; none when the walk asked each).
    /// - Throws: `PlanError.missingBase` when `base` is not a directory that exists (checked before any walk);
    ///   `.noMatch` naming the include patterns when no file matches;
    ///   `.outsideBase` naming the first (by path) matched file not under `base`; `.relativePattern`,
    ///   `.relativeBase`, `.noIncludePatterns` or `.invalidLimit` for unusable inputs.
    package func plan() throws(PlanError) -> PlanResult {
        guard !include.isEmpty else { throw PlanError.noIncludePatterns }
        guard base.utf8.first == UInt8(ascii: "/") else { throw PlanError.relativeBase(base: base) }
        try limits.validate()
        var walker = try DirectoryWalker(include: include, exclude: exclude)
        walker.asksReadability = asksReadabilityInWalk
        let base = PathText.normalizedAbsolute(base)
        try Self.requireDirectory(base)

        var files = UniqueFiles()
        var firstOutside: String?
        var outsideCount = 0
        let warnings = walker.walk(taking: { found -> Found in
            guard let relativePath = PathText.relative(found.path, to: base) else { return .outside(found.path) }
            return .file(PlannedFile(relativePath: relativePath, realDirectory: found.realDirectory, realName: found.realName,
                                     size: found.size, modifiedNanoseconds: found.modifiedNanoseconds))
        }, { found in
            switch found {
            case .file(let file):
                files.add(file)
            case .outside(let path):
                outsideCount += 1
                if firstOutside.map({ PathText.precedes(path, $0) }) ?? true { firstOutside = path }
            }
        })
        if let firstOutside {
            throw PlanError.outsideBase(path: firstOutside, base: base, others: outsideCount - 1)
        }
        var found = files.take()
        guard !found.isEmpty else {
            throw PlanError.noMatch(patterns: include.map(\.description))
        }
        Self.sortInPlanOrder(&found)
        return PlanResult(plan: Plan(sharding: found, limits: limits), warnings: warnings,
                          readability: asksReadabilityInWalk ? nil : ReadabilityCheck(base: base))
    }

    /// Throws ``PlanError/missingBase(base:isFile:)`` unless `base` is a directory (through links) or cannot be looked at
    /// (a base the walk cannot read is its warning).
    private static func requireDirectory(_ base: String) throws(PlanError) {
        var errorCode: Int32 = 0
        let kind = FileProbe.status(of: FileProbe.Reference(path: base), followingLinks: true, errorCode: &errorCode)?.kind
        if let kind, kind != .directory { throw PlanError.missingBase(base: base, isFile: true) }
        if kind == nil, errorCode == ENOENT || errorCode == ENOTDIR { throw PlanError.missingBase(base: base, isFile: false) }
    }

    /// A file the walk found: an input, or a path outside `base`.
    private enum Found: Sendable {
        case file(PlannedFile)
        case outside(String)
    }

    /// Sorts files by relative path, then real path, byte-wise.
    static func sortInPlanOrder(_ files: inout [PlannedFile]) {
        files.sort {
            let order = PathText.compare($0.relativePath, $1.relativePath)
            return order != 0 ? order < 0 : PathText.precedes($0.path, $1.path)
        }
    }
}
