import Foundation

/// Walks the directories that absolute include globs can reach and hands over each matching file as it is found.
///
/// - Each walk starts at a pattern's literal directory (`/data/in` for `/data/in/**/*.jpg`), never at `/`
///   unless a pattern does; roots under another root are walked once, as part of it.
/// - A directory is entered only when some include pattern can still match below it and no exclude
///   pattern matches it (an exclude matching a directory excludes everything in it, so `**/tmp/**`
///   and `**/tmp` both prune `tmp` without reading it). Excludes match hidden names with wildcards.
/// - Symlinks to files and directories are followed. A directory whose (device, inode) is already on
///   the current path is a loop: it is skipped and reported. The same directory reached by two
///   different paths is walked twice (the planner de-duplicates files by real path), which keeps the
///   result independent of the order `readdir` returns names in.
/// - Unreadable directories, broken symlinks, entries that vanish and paths of `PATH_MAX` bytes or
///   more are reported as warnings; the walk goes on.
/// - Files in the directories walked that an include pattern misses only by letter case
///   (`IMG_0001.JPG` against `*.jpg`) are one warning, naming the first and how many there are.
/// - An include pattern that takes no file, and an exclude pattern that matches nothing the include
///   patterns reach (a relative one read from the wrong directory, a misspelt name), are a warning each.
///
/// Memory: the names of the directories on the current path, read one directory at a time, and at
/// most `DirectoryWalk.openDirectoryLimit` open directories (the deepest on the current path, whose
/// entries are then reached by name), for each walk at once (``SubtreeWalks``: one a core), with the
/// findings of the few directories walked ahead; nothing of the rest of the tree is kept.
package struct DirectoryWalker: Sendable {
    /// A matching regular file (or a symlink to one).
    package struct Found: Sendable, Hashable {
        /// The path as walked, through any symlinks: the one the patterns matched.
        package var path: String
        /// The real path of the file's directory (its target's, for a symlink), with a trailing `/`; the
        /// files of one directory reached without a symlink share one string.
        package var realDirectory: String
        /// The file's real name: the name it was found by, or its target's for a symlink.
        package var realName: String
        package var size: Int64
        package var modifiedNanoseconds: Int64
    }

    package let include: [GlobPattern]
    package let exclude: [GlobPattern]
    /// Whether each matching file is asked whether this process may read it as it is found, on the thread that found it,
    /// right after its `stat` (a warning when it may not, ``ReadabilityCheck``): for a night that sends every file walked.
    package var asksReadability = false

    /// - Throws: `PlanError.relativePattern` for a pattern that is not absolute.
    package init(include: [GlobPattern], exclude: [GlobPattern]) throws(PlanError) {
        for pattern in include + exclude where !pattern.isAbsolute {
            throw PlanError.relativePattern(pattern: pattern.text)
        }
        self.include = include
        self.exclude = exclude
    }

    /// Walks every root, calling `visit` for each matching file, and returns the problems met, sorted by path.
    package func walk(_ visit: (Found) -> Void) -> [PlanWarning] {
        walk(taking: { $0 }, visit)
    }

    /// Walks every root on every core, calling `visit` on this thread with what `take` makes of each matching file on
    /// the thread that found it, and returns the problems met, sorted by path.
    ///
    /// A root's files are visited first; the directories in it are walked each by one walk, as many at once as there
    /// are cores, and visited in the order of their names (a root holding one directory is split below it instead).
    /// The files come in another order than one walk's, which the plan's sort does not see.
    package func walk<Item: Sendable>(taking take: @escaping @Sendable (Found) -> Item, _ visit: (Item) -> Void) -> [PlanWarning] {
        var walk = DirectoryWalk(include: include, exclude: exclude, asksReadability: asksReadability)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for root in roots() {
            var subtrees = walk.split(from: root) { visit(take($0)) }
            while subtrees.count == 1 {
                subtrees = walk.split(subtrees[0]) { visit(take($0)) }
            }
            SubtreeWalks(include: include, exclude: exclude, asksReadability: asksReadability, subtrees: subtrees, take: take).run(cores: cores) { subtree in
                walk.absorb(subtree.walk)
                subtree.items.forEach(visit)
            }
        }
        var warnings = walk.warnings
        if let (path, pattern, count) = walk.caseMisses {
            let more = count > 1 ? " (and \(CountText.of(count - 1, "more such file")))" : ""
            warnings.append(PlanWarning(path: path, problem: "not an input: include pattern '\(pattern)' matches it "
                + "but for letter case\(more); inputs.case_insensitive: true makes them inputs"))
        }
        warnings += Self.unused(include, used: walk.includesUsed, key: "inputs.include", matching: "no file")
        warnings += Self.unused(exclude, used: walk.excludesUsed, key: "inputs.exclude", matching: "nothing the include patterns reach")
        return warnings.sorted(by: PlanWarning.precedes)
    }

    /// A warning for each of `patterns` whose index is not in `used`, under the pattern as it applies.
    private static func unused(_ patterns: [GlobPattern], used: Set<Int>, key: String, matching what: String) -> [PlanWarning] {
        patterns.indices.filter { !used.contains($0) }.map { index in
            let pattern = patterns[index]
            let relative = pattern.text.utf8.first != UInt8(ascii: "/")
            return PlanWarning(path: pattern.description, problem: "\(key) pattern '\(pattern.text)' matches \(what)"
                + (relative ? "; a relative pattern is read from the manifest's directory, not from inputs.base" : ""))
        }
    }

    /// The literal directories of the include patterns, without those lying under another one.
    func roots() -> [String] {
        let candidates = include.compactMap(\.walkRoot).sorted(by: PathText.precedes)
        var roots: [String] = []
        for candidate in candidates {
            let covered = roots.contains { PathText.same($0, candidate) || PathText.relative(candidate, to: $0) != nil }
            if !covered { roots.append(candidate) }
        }
        return roots
    }
}
