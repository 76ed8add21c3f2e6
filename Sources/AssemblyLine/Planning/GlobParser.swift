/// Compiles the text of a glob into segments, reporting the first mistake with its position.
///
/// Grammar: segments separated by `/`; in a segment `*`, `?`, `[...]` (ranges `a-z`, negation
/// with `!` or `^` first, `]` first is literal) and `\x` for a literal `x`. A segment that is
/// exactly `**` is a globstar. Empty and `.` segments are dropped; `..` removes the plain name
/// before it (lexically), and is refused after a wildcard, where it would have no fixed meaning.
struct GlobParser {
    private let text: String
    private let characters: [Unicode.Scalar]
    private var index = 0
    private var segments: [GlobSegment]
    private let isAbsolute: Bool

    /// Prepares to parse `text`; `prefix` holds the already-literal segments of a directory it is relative to.
    init(text: String, prefix: [GlobSegment], prefixIsAbsolute: Bool) {
        self.text = text
        self.characters = Array(text.unicodeScalars)
        let textIsAbsolute = characters.first == "/"
        self.segments = textIsAbsolute ? [] : prefix
        self.isAbsolute = textIsAbsolute || prefixIsAbsolute
    }

    /// Returns whether the result is absolute, and its segments.
    mutating func parse() throws(PlanError) -> (isAbsolute: Bool, segments: [GlobSegment]) {
        guard !characters.isEmpty else {
            throw PlanError.malformedPattern(pattern: text, position: 1, reason: "the pattern is empty")
        }
        while index < characters.count {
            if characters[index] == "/" {
                index += 1
                continue
            }
            try parseSegment()
        }
        return (isAbsolute, segments)
    }

    // MARK: - Segments

    private mutating func parseSegment() throws(PlanError) {
        let start = index
        var tokens: [GlobToken] = []
        while index < characters.count, characters[index] != "/" {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else {
                    throw malformed(at: index, "a '\\' at the end escapes nothing")
                }
                guard characters[index + 1] != "/" else {
                    throw malformed(at: index, "'/' separates names and cannot be escaped")
                }
                tokens.append(.character(characters[index + 1]))
                index += 2
            case "*":
                if tokens.last != .anyRun { tokens.append(.anyRun) }
                index += 1
            case "?":
                tokens.append(.anyCharacter)
                index += 1
            case "[":
                tokens.append(.oneOf(try parseClass()))
            default:
                tokens.append(.character(character))
                index += 1
            }
        }
        let raw = String(String.UnicodeScalarView(characters[start..<index]))
        try append(raw == "**" ? .globstar : Self.segment(from: tokens), rawText: raw, at: start)
    }

    private static func segment(from tokens: [GlobToken]) -> GlobSegment {
        var scalars = String.UnicodeScalarView()
        for token in tokens {
            guard case let .character(character) = token else { return .wildcard(tokens) }
            scalars.append(character)
        }
        return .literal(String(scalars))
    }

    private mutating func append(_ segment: GlobSegment, rawText: String, at start: Int) throws(PlanError) {
        guard case let .literal(name) = segment else {
            segments.append(segment)
            return
        }
        switch name {
        case ".":
            return
        case "..":
            switch segments.last {
            case .literal(let previous) where previous != "..":
                segments.removeLast()
            case .none where isAbsolute:
                return
            case .none, .literal:
                segments.append(segment)
            case .wildcard, .globstar:
                throw malformed(at: start, "'..' cannot follow a wildcard segment")
            }
        default:
            segments.append(segment)
        }
    }

    // MARK: - Bracket expressions

    /// Parses `[...]` starting at the `[`; leaves `index` after the closing `]`.
    private mutating func parseClass() throws(PlanError) -> GlobCharacterClass {
        let open = index
        index += 1
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while true {
            guard index < characters.count else {
                throw malformed(at: open, "'[' is never closed by ']'")
            }
            let character = characters[index]
            if character == "]", !first {
                index += 1
                return GlobCharacterClass(ranges: ranges, negated: negated)
            }
            first = false
            let low = try classMember(open: open)
            if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                let dash = index
                index += 1
                let high = try classMember(open: open)
                guard low <= high else {
                    throw malformed(at: dash, "the range '\(low)-\(high)' is empty")
                }
                ranges.append(low...high)
            } else {
                ranges.append(low...low)
            }
        }
    }

    /// Reads one character of a bracket expression, resolving a `\` escape.
    private mutating func classMember(open: Int) throws(PlanError) -> Unicode.Scalar {
        var character = characters[index]
        if character == "/" {
            throw malformed(at: index, "'/' cannot appear inside '[...]'")
        }
        if character == "\\" {
            guard index + 1 < characters.count else {
                throw malformed(at: open, "'[' is never closed by ']'")
            }
            index += 1
            character = characters[index]
        }
        index += 1
        return character
    }

    private func malformed(at offset: Int, _ reason: String) -> PlanError {
        .malformedPattern(pattern: text, position: offset + 1, reason: reason)
    }
}
