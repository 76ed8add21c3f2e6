/// A regular expression an Assembly variable's value must match as a whole, kept as its source text.
///
/// The pattern is compiled once, when the policy loads (a bad or unsupported one keeps the
/// policy from loading), to a ``LinearRegex``: whatever a caller puts in a field, matching it
/// takes time linear in its length, so no request can hold a core.
public struct FieldPattern: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    private let regex: LinearRegex

    /// - Throws: ``LinearRegexError``, whose description says where and what was expected.
    public init(_ pattern: String) throws(LinearRegexError) {
        regex = try LinearRegex(pattern)
        self.pattern = pattern
    }

    /// True when the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        regex.wholeMatch(text)
    }

    public var description: String { pattern }

    public static func == (lhs: FieldPattern, rhs: FieldPattern) -> Bool {
        lhs.pattern == rhs.pattern
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}
