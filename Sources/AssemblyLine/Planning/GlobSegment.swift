/// One `/`-separated part of a compiled glob, and how it matches a single file or directory name.
enum GlobSegment: Sendable, Hashable {
    /// A name without wildcards (escapes already resolved), compared byte for byte.
    case literal(String)
    /// A name with `*`, `?` or `[...]`.
    case wildcard([GlobToken])
    /// `**` as a whole segment: zero or more names.
    case globstar

    /// Whether the segment names a hidden entry explicitly, which is what lets it match one.
    var namesHiddenEntries: Bool {
        switch self {
        case let .literal(name): return name.utf8.first == UInt8(ascii: ".")
        case let .wildcard(tokens): return tokens.first == .character(".")
        case .globstar: return false
        }
    }

    /// Whether `name` (one path component, never containing `/`) matches this segment.
    ///
    /// A name starting with `.` matches only a segment that starts with a literal `.`, unless
    /// `hiddenNames` is `.matchedByWildcards`. A globstar matches every name it may enter. With
    /// `ignoringCase`, an ASCII letter matches either case.
    func matches(_ name: String, hiddenNames: GlobPattern.HiddenNames, ignoringCase: Bool) -> Bool {
        switch self {
        case let .literal(literal):
            return ignoringCase
                ? literal.utf8.elementsEqual(name.utf8) { $0 == $1 || GlobToken.otherCase(of: $0) == $1 }
                : literal.utf8.elementsEqual(name.utf8)
        case let .wildcard(tokens):
            if hiddenNames == .explicitOnly, name.utf8.first == UInt8(ascii: "."), !namesHiddenEntries {
                return false
            }
            return Self.match(tokens, Array(name.unicodeScalars), ignoringCase: ignoringCase)
        case .globstar:
            return hiddenNames == .matchedByWildcards || name.utf8.first != UInt8(ascii: ".")
        }
    }

    /// Matches tokens against characters, backtracking only to the last `*` seen (linear in practice).
    private static func match(_ tokens: [GlobToken], _ name: [Unicode.Scalar], ignoringCase: Bool) -> Bool {
        var tokenIndex = 0
        var nameIndex = 0
        var lastStar: Int?
        var resumeAt = 0
        while nameIndex < name.count {
            if tokenIndex < tokens.count, tokens[tokenIndex] == .anyRun {
                lastStar = tokenIndex
                resumeAt = nameIndex
                tokenIndex += 1
            } else if tokenIndex < tokens.count, tokens[tokenIndex].matches(name[nameIndex], ignoringCase: ignoringCase) {
                tokenIndex += 1
                nameIndex += 1
            } else if let star = lastStar {
                tokenIndex = star + 1
                resumeAt += 1
                nameIndex = resumeAt
            } else {
                return false
            }
        }
        while tokenIndex < tokens.count, tokens[tokenIndex] == .anyRun {
            tokenIndex += 1
        }
        return tokenIndex == tokens.count
    }
}
