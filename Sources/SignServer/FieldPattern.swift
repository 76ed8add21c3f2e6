/// A regular expression an Assembly variable's value must match as a whole, kept as its source text.
///
/// The pattern is compiled once, when the policy loads (a bad or unsupported one keeps the
/// policy from loading), to a ``LinearRegex``: whatever a caller puts in a field, matching it
/// takes time linear in its length, so no request can hold a core.
package struct FieldPattern: Sendable, Hashable, CustomStringConvertible {
    package let pattern: String
    private let regex: LinearRegex

    /// - Throws: ``LinearRegexError``, whose description says where and what was expected.
    package init(_ pattern: String) throws(LinearRegexError) {
        regex = try LinearRegex(pattern)
        self.pattern = pattern
    }

    /// True when the whole of `text` matches.
    package func matches(_ text: String) -> Bool {
        regex.wholeMatch(text)
    }

    package var description: String { pattern }

    package static func == (lhs: FieldPattern, rhs: FieldPattern) -> Bool {
        lhs.pattern == rhs.pattern
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}
