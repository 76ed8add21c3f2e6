/// A compiled glob that selects files by path, as written in a manifest's `inputs.include` and `inputs.exclude`.
///
/// Syntax, segment by segment (segments are separated by `/`):
/// - `**` as a whole segment matches any number of directories, including none;
/// - `*` matches any run of characters within one name, `?` exactly one character;
/// - `[abc]`, `[a-z]`, `[!a-z]` or `[^a-z]` match one character of (or not of) a set; a `]` right
///   after the opening `[` (or after `!`/`^`) is literal;
/// - `\x` matches `x` literally, also inside `[...]`.
///
/// Hidden names (starting with `.`) are matched only by a segment that starts with a literal `.`,
/// as in shells and rsync: `*` and `**` never enter `.git`, `.*` and `.cache/**` do. Names are
/// compared byte for byte (case-sensitive, no Unicode normalization); a pattern compiled
/// `ignoringCase` takes the ASCII letters A–Z and a–z as equal to their other case, nothing else.
///
/// ```swift
/// let jpegs = try GlobPattern("photos/**/*.jpg", relativeTo: "/srv/job")
/// jpegs.matches("/srv/job/photos/2024/a.jpg")   // true
/// jpegs.matches("/srv/job/photos/.trash/a.jpg") // false: hidden directory
/// ```
package struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    /// Whether wildcards may match hidden names.
    package enum HiddenNames: Sendable, Hashable {
        /// Only a segment starting with a literal `.` matches a hidden name (inclusion: the default).
        case explicitOnly
        /// `*`, `?`, `[...]` and `**` match hidden names too (the planner uses it for excludes, so
        /// `**/tmp/**` excludes `.cache/tmp/x` as well).
        case matchedByWildcards
    }

    /// The pattern as written.
    package let text: String
    /// Whether the compiled pattern is anchored at `/` (written absolute, or resolved against a directory).
    package let isAbsolute: Bool
    /// The pattern as it applies: `text` for a pattern written absolute or not resolved, else `directory/text`.
    package let description: String
    /// Whether ASCII letters match either case (`inputs.case_insensitive`).
    package let ignoresCase: Bool
    let segments: [GlobSegment]

    /// Compiles `text` as written; a relative pattern then matches relative paths.
    ///
    /// - Throws: `PlanError.malformedPattern` naming the pattern and the 1-based position of the mistake.
    package init(_ text: String) throws(PlanError) {
        var parser = GlobParser(text: text, prefix: [], prefixIsAbsolute: false)
        let parsed = try parser.parse()
        self.text = text
        self.isAbsolute = parsed.isAbsolute
        self.description = text
        self.ignoresCase = false
        self.segments = parsed.segments
    }

    /// Compiles `text`, resolving it against the absolute `directory` when it is relative.
    ///
    /// The directory's names are taken literally (a `[` in a directory name is no bracket expression).
    /// With `ignoringCase`, ASCII letters of every name match either case; the walk still starts at the
    /// pattern's leading directory (``walkRoot``) as written.
    /// - Throws: `PlanError.relativeBase` when `directory` is relative, `PlanError.malformedPattern` as above.
    package init(_ text: String, relativeTo directory: String, ignoringCase: Bool = false) throws(PlanError) {
        guard directory.utf8.first == UInt8(ascii: "/") else {
            throw PlanError.relativeBase(base: directory)
        }
        let prefix = PathText.components(directory).map(GlobSegment.literal)
        var parser = GlobParser(text: text, prefix: prefix, prefixIsAbsolute: true)
        let parsed = try parser.parse()
        self.text = text
        self.isAbsolute = true
        self.description = text.utf8.first == UInt8(ascii: "/")
            ? text
            : PathText.appending(text, to: PathText.normalizedAbsolute(directory))
        self.ignoresCase = ignoringCase
        self.segments = parsed.segments
    }

    private init(_ pattern: GlobPattern, ignoringCase: Bool) {
        text = pattern.text
        isAbsolute = pattern.isAbsolute
        description = pattern.description
        ignoresCase = ignoringCase
        segments = pattern.segments
    }

    /// The same pattern matching ASCII letters of either case; its states are this pattern's.
    package var ignoringCase: GlobPattern { GlobPattern(self, ignoringCase: true) }

    /// Whether `path` is matched: an absolute path by an absolute pattern, a relative path by a relative one.
    ///
    /// Empty and `.` parts of `path` are ignored; a trailing `/` does not matter.
    package func matches(_ path: String, hiddenNames: HiddenNames = .explicitOnly) -> Bool {
        guard (path.utf8.first == UInt8(ascii: "/")) == isAbsolute else { return false }
        var state = initialState
        for name in path.split(separator: "/", omittingEmptySubsequences: true) where name != "." {
            state = advance(state, by: String(name), hiddenNames: hiddenNames)
            if state.isDead { return false }
        }
        return accepts(state)
    }

    /// The deepest directory that every match lies under: the leading plain names, except the last segment.
    ///
    /// The walker starts there, so `/data/in/**/*.jpg` reads `/data/in` and never `/`. Nil for a relative pattern.
    var walkRoot: String? {
        guard isAbsolute else { return nil }
        var names: [String] = []
        for segment in segments.dropLast() {
            guard case let .literal(name) = segment else { break }
            names.append(name)
        }
        return "/" + names.joined(separator: "/")
    }
}
