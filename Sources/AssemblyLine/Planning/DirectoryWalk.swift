#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of `DirectoryWalker`: an explicit depth-first stack of directories and the warnings met so far.
///
/// The stack is explicit rather than recursive so that deep trees cannot overflow a thread's stack.
/// The deepest directories on the stack stay open, so their entries are reached by name; shallower
/// ones are closed (at most `openDirectoryLimit` stay open) and their entries reached by path.
struct DirectoryWalk {
    /// How many directories on the current path stay open at most.
    static let openDirectoryLimit = 32

    /// A pattern's index and where it stands after the names of the current directory.
    typealias PatternState = (pattern: Int, state: GlobState)

    /// A directory left for another walk to take (``DirectoryWalker`` walks these on every core): where it is, and
    /// what the walk that found it knew of it.
    struct Subtree: Sendable {
        var path: String
        var realPath: String
        var identity: FileProbe.DirectoryIdentity
        var include: [PatternState]
        var exclude: [PatternState]
        /// The directories on the path to it, a loop's way back.
        var ancestors: Set<FileProbe.DirectoryIdentity>
    }

    /// A directory being walked: its live pattern states and the names still to visit.
    private struct Frame {
        var path: String
        /// The directory's real path with a trailing `/`, shared by the files found in it.
        var realDirectory: String
        var identity: FileProbe.DirectoryIdentity
        var include: [PatternState]
        var exclude: [PatternState]
        var entries: [FileProbe.Entry]
        var next = 0
        /// The open directory, or -1 once it is closed to stay within `openDirectoryLimit`.
        var descriptor: Int32

        /// How the calls reach the entry `name` of this directory, whose whole path is `path`.
        func reference(to name: String, at path: String) -> FileProbe.Reference {
            descriptor >= 0 ? FileProbe.Reference(directory: descriptor, path: name) : FileProbe.Reference(path: path)
        }
    }

    private let include: [GlobPattern]
    private let exclude: [GlobPattern]
    /// The include patterns ignoring case, to find the files they alone would match; nil when all ignore case already.
    private let caseless: [GlobPattern]?
    /// Whether each matching file is asked for `access(R_OK)` (``DirectoryWalker/asksReadability``).
    private let asksReadability: Bool
    private var stack: [Frame] = []
    private var onPath: Set<FileProbe.DirectoryIdentity> = []
    /// Whether the directories found in the first directory entered are left for other walks, not entered.
    private var leavesSubtrees = false
    /// The directories left, in the order found.
    private(set) var subtrees: [Subtree] = []
    private(set) var warnings: [PlanWarning] = []
    /// The first file an include pattern misses only by letter case, with that pattern, and how many such files there are.
    private(set) var caseMisses: (path: String, pattern: String, count: Int)?
    /// The include patterns that took a file, by index.
    private(set) var includesUsed: Set<Int> = []
    /// The exclude patterns that left out a file or directory the include patterns took, by index.
    private(set) var excludesUsed: Set<Int> = []

    init(include: [GlobPattern], exclude: [GlobPattern], asksReadability: Bool = false) {
        self.include = include
        self.exclude = exclude
        self.asksReadability = asksReadability
        caseless = include.allSatisfy(\.ignoresCase) ? nil : include.map(\.ignoringCase)
    }

    /// Walks the tree under `root` (absolute, normalized), calling `visit` for each matching file.
    mutating func run(from root: String, visit: (DirectoryWalker.Found) -> Void) {
        let includeStates = include.indices
            .map { (pattern: $0, state: include[$0].state(after: root, hiddenNames: .explicitOnly)) }
            .filter { include[$0.pattern].canMatchBelow($0.state) }
        let excludeStates = exclude.indices
            .map { (pattern: $0, state: exclude[$0].state(after: root, hiddenNames: .matchedByWildcards)) }
            .filter { !$0.state.isDead }
        guard !includeStates.isEmpty, !isExcluded(by: excludeStates) else { return }
        var code: Int32 = 0
        guard let status = FileProbe.status(of: FileProbe.Reference(path: root), followingLinks: true, errorCode: &code) else {
            if code != ENOENT, code != ENOTDIR { warn(root, "cannot read: \(FileProbe.message(for: code))") }
            return
        }
        guard status.kind == .directory else { return }
        guard let realRoot = FileProbe.realPath(of: root, errorCode: &code) else {
            warn(root, "cannot resolve: \(FileProbe.message(for: code))")
            return
        }
        enter(root, opening: FileProbe.Reference(path: root), realPath: realRoot, identity: status.identity,
              include: includeStates, exclude: excludeStates)
        drain(visit: visit)
    }

    /// Walks `subtree`, calling `visit` for each matching file.
    mutating func run(_ subtree: Subtree, visit: (DirectoryWalker.Found) -> Void) {
        onPath = subtree.ancestors
        enter(subtree.path, opening: FileProbe.Reference(path: subtree.path), realPath: subtree.realPath, identity: subtree.identity,
              include: subtree.include, exclude: subtree.exclude)
        drain(visit: visit)
    }

    /// Visits the files of the directory `root` (or of `subtree`) and returns the directories in it to walk, without entering them.
    mutating func split(from root: String, visit: (DirectoryWalker.Found) -> Void) -> [Subtree] {
        leavesSubtrees = true
        defer { leavesSubtrees = false; subtrees = [] }
        run(from: root, visit: visit)
        return subtrees
    }

    /// ``split(from:visit:)`` of a subtree left before.
    mutating func split(_ subtree: Subtree, visit: (DirectoryWalker.Found) -> Void) -> [Subtree] {
        leavesSubtrees = true
        defer { leavesSubtrees = false; subtrees = [] }
        run(subtree, visit: visit)
        return subtrees
    }

    /// Takes in what another walk of a subtree met: its warnings, its case misses after this walk's, the patterns it used.
    mutating func absorb(_ other: DirectoryWalk) {
        warnings += other.warnings
        if let theirs = other.caseMisses {
            caseMisses = caseMisses.map { ($0.path, $0.pattern, $0.count + theirs.count) } ?? theirs
        }
        includesUsed.formUnion(other.includesUsed)
        excludesUsed.formUnion(other.excludesUsed)
    }

    /// Walks the directories on the stack to their ends.
    private mutating func drain(visit: (DirectoryWalker.Found) -> Void) {
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                onPath.remove(stack[top].identity)
                if stack[top].descriptor >= 0 { close(stack[top].descriptor) }
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            visitEntry(entry, in: stack[top], visit: visit)
        }
    }

    // MARK: - Entries

    private mutating func visitEntry(_ entry: FileProbe.Entry, in parent: Frame, visit: (DirectoryWalker.Found) -> Void) {
        let name = entry.name
        let path = PathText.appending(name, to: parent.path)
        let includeStates = advance(parent.include, of: include, by: name, hiddenNames: .explicitOnly)
        let wantsFile = includeStates.contains { include[$0.pattern].accepts($0.state) }
        if !wantsFile, entry.kind == .regular, caseless != nil { noteCaseMiss(name, at: path, in: parent) }
        guard !includeStates.isEmpty else { return }
        let excludeStates = advance(parent.exclude, of: exclude, by: name, hiddenNames: .matchedByWildcards)
        guard !isExcluded(by: excludeStates) else { return }
        let wantsDirectory = includeStates.contains { include[$0.pattern].canMatchBelow($0.state) }
        guard wantsFile || wantsDirectory else { return }

        switch entry.kind {
        case .regular where !wantsFile, .directory where !wantsDirectory:
            return
        case .other:
            if wantsFile { warn(path, "skipped: not a regular file") }
            return
        default:
            break
        }
        // Reached by name in an open directory, a path can outgrow what the rest of the run may open.
        guard path.utf8.count < PATH_MAX else {
            warn(path, "skipped: the path is longer than PATH_MAX (\(PATH_MAX) bytes)")
            return
        }
        let reference = parent.reference(to: name, at: path)
        var code: Int32 = 0
        guard var status = FileProbe.status(of: reference, followingLinks: false, errorCode: &code) else {
            warn(path, "vanished or unreadable: \(FileProbe.message(for: code))")
            return
        }
        let isLink = status.kind == .symbolicLink
        if isLink {
            guard let target = FileProbe.status(of: reference, followingLinks: true, errorCode: &code) else {
                let reason = code == ELOOP ? "symlink loop" : FileProbe.message(for: code)
                warn(path, "broken symlink: \(reason)")
                return
            }
            status = target
        }
        switch status.kind {
        case .regular where wantsFile:
            guard let real = resolve(path, name: name, in: parent, isLink: isLink) else { return }
            let taking = includeStates.filter { include[$0.pattern].accepts($0.state) }
            includesUsed.formUnion(taking.map(\.pattern))
            if asksReadability, let code = FileProbe.readError(of: reference) { warn(path, ReadabilityCheck.problem(for: code)) }
            visit(DirectoryWalker.Found(
                path: path, realDirectory: real.directory, realName: real.name,
                size: status.size, modifiedNanoseconds: status.modifiedNanoseconds))
        case .directory where wantsDirectory:
            guard !onPath.contains(status.identity) else {
                warn(path, "skipped: leads back to a directory being walked (symlink loop)")
                return
            }
            guard let real = resolve(path, name: name, in: parent, isLink: isLink) else { return }
            let childInclude = includeStates.filter { include[$0.pattern].canMatchBelow($0.state) }
            guard !leavesSubtrees || stack.count > 1 else {
                subtrees.append(Subtree(path: path, realPath: real.directory + real.name, identity: status.identity,
                                        include: childInclude, exclude: excludeStates, ancestors: onPath))
                return
            }
            enter(path, opening: reference, realPath: real.directory + real.name, identity: status.identity,
                  include: childInclude, exclude: excludeStates)
        case .other where wantsFile:
            warn(path, "skipped: not a regular file")
        default:
            return
        }
    }

    /// Opens the directory at `path` (reached through `opening`), reads its names and pushes it, or reports why it cannot be read.
    private mutating func enter(
        _ path: String, opening: FileProbe.Reference, realPath: String, identity: FileProbe.DirectoryIdentity,
        include: [PatternState], exclude: [PatternState]
    ) {
        var code: Int32 = 0
        guard let listing = FileProbe.openDirectory(opening, errorCode: &code) else {
            warn(path, "cannot read directory: \(FileProbe.message(for: code))")
            return
        }
        for name in listing.undecodable {
            warn(PathText.appending(name, to: path), "skipped: the name is not valid UTF-8")
        }
        onPath.insert(identity)
        // Names in byte order: the walk then finds files almost in plan order, and the plan's sort has little left to do.
        let entries = listing.entries.sorted { PathText.precedes($0.name, $1.name) }
        stack.append(Frame(
            path: path, realDirectory: PathText.asDirectory(realPath), identity: identity,
            include: include, exclude: exclude, entries: entries, descriptor: listing.descriptor))
        let closing = stack.count - 1 - Self.openDirectoryLimit
        if closing >= 0, stack[closing].descriptor >= 0 {
            close(stack[closing].descriptor)
            stack[closing].descriptor = -1
        }
    }

    /// The real directory (ending in `/`) and real name of an entry: its parent's and its own, or `realpath`'s for a symlink.
    private mutating func resolve(_ path: String, name: String, in parent: Frame, isLink: Bool) -> (directory: String, name: String)? {
        guard isLink else { return (parent.realDirectory, name) }
        var code: Int32 = 0
        guard let resolved = FileProbe.realPath(of: path, errorCode: &code) else {
            warn(path, "cannot resolve symlink: \(FileProbe.message(for: code))")
            return nil
        }
        return PathText.directoryAndName(of: resolved)
    }

    private func advance(
        _ states: [PatternState], of patterns: [GlobPattern], by name: String, hiddenNames: GlobPattern.HiddenNames
    ) -> [PatternState] {
        var next: [PatternState] = []
        for (pattern, state) in states {
            let advanced = patterns[pattern].advance(state, by: name, hiddenNames: hiddenNames)
            if !advanced.isDead { next.append((pattern, advanced)) }
        }
        return next
    }

    /// Whether an exclude pattern matches the entry `states` stand after; those that do are counted as used.
    private mutating func isExcluded(by states: [PatternState]) -> Bool {
        let matching = states.filter { exclude[$0.pattern].accepts($0.state) }
        excludesUsed.formUnion(matching.map(\.pattern))
        return !matching.isEmpty
    }

    /// Counts a regular file that no include pattern matches but one would if it ignored letter case, and no exclude matches.
    private mutating func noteCaseMiss(_ name: String, at path: String, in parent: Frame) {
        guard let caseless, let state = parent.include.first(where: {
            caseless[$0.pattern].accepts(caseless[$0.pattern].advance($0.state, by: name, hiddenNames: .explicitOnly))
        }) else { return }
        let excluded = advance(parent.exclude, of: exclude, by: name, hiddenNames: .matchedByWildcards)
        guard !excluded.contains(where: { exclude[$0.pattern].accepts($0.state) }) else { return }
        caseMisses = caseMisses.map { ($0.path, $0.pattern, $0.count + 1) } ?? (path, include[state.pattern].text, 1)
    }

    private mutating func warn(_ path: String, _ problem: String) {
        warnings.append(PlanWarning(path: path, problem: problem))
    }
}
