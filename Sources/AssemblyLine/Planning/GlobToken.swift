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

    /// Whether this single-character token matches `character`; `*` is handled by the caller.
    func matches(_ character: Unicode.Scalar) -> Bool {
        switch self {
        case let .character(expected): return expected == character
        case .anyCharacter: return true
        case .anyRun: return false
        case let .oneOf(characterClass): return characterClass.contains(character)
        }
    }
}

/// The set of characters of a bracket expression such as `[a-z_]` or `[!0-9]`.
struct GlobCharacterClass: Sendable, Hashable {
    var ranges: [ClosedRange<Unicode.Scalar>]
    var negated: Bool

    func contains(_ character: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(character) } != negated
    }
}
