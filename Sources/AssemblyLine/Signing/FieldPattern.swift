/// A regular expression an Assembly variable's value must match as a whole, kept as its source text.
///
/// The text is compiled when the pattern is made (so a policy with a bad pattern does not load)
/// and again for each match: Swift's `Regex` is not `Sendable`, and a policy is shared by the
/// service's connection threads.
public struct FieldPattern: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String

    /// - Throws: the regex parser's error, whose description says what was expected.
    public init(_ pattern: String) throws {
        _ = try Regex(pattern)
        self.pattern = pattern
    }

    /// True when the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: text)) != nil
    }

    public var description: String { pattern }
}
