/// Where a glob can be after reading the first names of a path: the set of segments it may match next.
///
/// The walker keeps one per pattern and directory, so matching a file costs one step per name
/// instead of re-matching the whole path, and a directory no pattern can reach is never read.
struct GlobState: Sendable, Hashable {
    /// Segment positions, each in `0...segments.count`; `segments.count` means the whole pattern matched.
    var positions: [Int]

    /// No continuation of the path can match.
    var isDead: Bool { positions.isEmpty }
}

extension GlobPattern {
    /// The state before any name is read.
    var initialState: GlobState {
        var state = GlobState(positions: [])
        insert(0, into: &state)
        return state
    }

    /// The state after reading one more name of the path.
    func advance(_ state: GlobState, by name: String, hiddenNames: HiddenNames) -> GlobState {
        var next = GlobState(positions: [])
        for position in state.positions where position < segments.count {
            let segment = segments[position]
            guard segment.matches(name, hiddenNames: hiddenNames, ignoringCase: ignoresCase) else { continue }
            insert(segment == .globstar ? position : position + 1, into: &next)
        }
        return next
    }

    /// Whether the names read so far form a match.
    func accepts(_ state: GlobState) -> Bool {
        state.positions.contains(segments.count)
    }

    /// Whether some longer path (below the names read so far) could still match.
    func canMatchBelow(_ state: GlobState) -> Bool {
        state.positions.contains { $0 < segments.count }
    }

    /// The state after reading each name of `path` (absolute or relative, as the pattern is) from the start.
    func state(after path: String, hiddenNames: HiddenNames) -> GlobState {
        var state = initialState
        for name in PathText.components(path) {
            state = advance(state, by: name, hiddenNames: hiddenNames)
            if state.isDead { break }
        }
        return state
    }

    /// Adds `position` and, since `**` may match no name, every position a run of globstars lets it skip to.
    private func insert(_ position: Int, into state: inout GlobState) {
        var position = position
        while true {
            if !state.positions.contains(position) {
                state.positions.append(position)
            }
            guard position < segments.count, segments[position] == .globstar else { return }
            position += 1
        }
    }
}

extension [GlobPattern] {
    /// True when a pattern matches `path` or a folder above it: how excludes apply to a bucket's keys and a list's rows.
    func matchesPathOrFolder(_ path: String) -> Bool {
        guard !isEmpty else { return false }
        var folder = path
        while folder != "/" && !folder.isEmpty {
            if contains(where: { $0.matches(folder) }) { return true }
            folder = PathText.directory(of: folder)
        }
        return false
    }
}
