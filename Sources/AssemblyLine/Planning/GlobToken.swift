/// One element of a wildcard segment.
enum GlobToken: Sendable, Hashable {
    /// Exactly this character.
    case character(Unicode.Scalar)
    /// `?`: any one character.
    case anyCharacter
    /// `*`: any run of characters, including none.
    case anyRun
    /// `[...]`: one character from (or, negated, not from) a set of ranges.
    case oneOf(GlobCharacterClass)

    /// Whether this single-character token matches `character` (an ASCII letter in either case, when
    /// `ignoringCase`); `*` is handled by the caller.
    func matches(_ character: Unicode.Scalar, ignoringCase: Bool) -> Bool {
        switch self {
        case let .character(expected):
            return expected == character || ignoringCase && Self.otherCase(of: expected) == character
        case .anyCharacter: return true
        case .anyRun: return false
        case let .oneOf(characterClass): return characterClass.contains(character, ignoringCase: ignoringCase)
        }
    }

    /// An ASCII letter in its other case; nil for any other character.
    static func otherCase(of character: Unicode.Scalar) -> Unicode.Scalar? {
        character.isASCII ? otherCase(of: UInt8(character.value)).map(Unicode.Scalar.init) : nil
    }

    /// An ASCII letter's byte in its other case; nil for any other byte.
    static func otherCase(of byte: UInt8) -> UInt8? {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) ? byte ^ 0x20 : nil
    }
}

/// The set of characters of a bracket expression such as `[a-z_]` or `[!0-9]`.
struct GlobCharacterClass: Sendable, Hashable {
    var ranges: [ClosedRange<Unicode.Scalar>]
    var negated: Bool

    /// Whether `character` is in the set (or, ignoring case, an ASCII letter in either case is).
    func contains(_ character: Unicode.Scalar, ignoringCase: Bool) -> Bool {
        var found = ranges.contains { $0.contains(character) }
        if !found, ignoringCase, let other = GlobToken.otherCase(of: character) {
            found = ranges.contains { $0.contains(other) }
        }
        return found != negated
    }
}
