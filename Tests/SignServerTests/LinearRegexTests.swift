import AssemblyLine
import SignServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct LinearRegexTests {
    static let patterns = [
        "[a-z]+", "[a-z0-9-]{1,8}", "[^/.]+", "a|b|cd", "(ab)*c", "(?:ab|a)+b?", "x{2}", "x{2,}", "x{0,3}",
        "\\d{4}-\\d{2}", "\\w+\\s\\w+", "[\\w.-]+@[\\w-]+", "a.c", "^abc$", "(a|ab)(c|bcd)", "a*?b",
        "[a\\]]+", "colou?r", "(?<year>\\d{4})", "\\x41+", "\\.json", "[-a]", "[a-]", "(a*)*", "()", "a||b", "",
    ]
    static let texts = [
        "", "a", "abc", "ab", "abcd", "xx", "xxx", "xxxx", "2026-12", "hello world", "me@ex-ample", "a.c", "axc",
        "c", "ababc", "abab", "aab", "colour", "color", "AAA", "x.json", "-", "]]a", "a]", "summer-26", "../etc",
        "a\nc", "UPPER", "1999",
    ]

    @Test(arguments: patterns)
    func agreesWithSwiftRegexOnWholeMatches(pattern: String) async throws {
        let linear = try LinearRegex(pattern)
        let reference = try Regex(pattern)
        for text in Self.texts {
            let expected = (try? reference.wholeMatch(in: text)) != nil
            #expect(linear.wholeMatch(text) == expected, "\(pattern) on \(text.debugDescription)")
        }
    }

    /// Patterns that make a backtracking engine take exponential time finish here at once (a backtracking
    /// engine would not finish this test at all).
    @Test(arguments: ["(a+)+b", "(a|a)*b", "(a|aa)+c", "(.*)*x", "(\\w+\\s?)+$!"])
    func catastrophicPatternsRunInLinearTime(pattern: String) async throws {
        let regex = try LinearRegex(pattern)
        #expect(!regex.wholeMatch(String(repeating: "a", count: 20_000)))
        #expect(regex.wholeMatch(String(repeating: "a", count: 20_000) + String(pattern.last!)) == (pattern != "(\\w+\\s?)+$!"))
    }

    @Test(arguments: [
        ("(?=a)b", "at offset 0: lookaround cannot be matched in linear time"),
        ("a(?<!b)", "at offset 1: lookaround cannot be matched in linear time"),
        ("(a)\\1", "at offset 3: back-references cannot be matched in linear time"),
        ("(?>a)", "at offset 0: atomic groups are not supported"),
        ("(?i)a", "at offset 0: inline options and other (?…) groups are not supported"),
        ("a++", "at offset 2: possessive quantifiers are not supported"),
        ("a**", "at offset 2: a quantifier cannot follow a quantifier; group the first one: (…)"),
        ("*a", "at offset 0: nothing to repeat before '*'"),
        ("a{2", "at offset 1: expected '}' to close the repetition count"),
        ("a{3,1}", "at offset 1: the repetition {3,1} has its bounds reversed"),
        ("a{1001}", "at offset 1: repetition counts go up to 1000"),
        ("(a{1000}){5}", "at offset 12: the pattern is too large (over 4096 steps compiled); use smaller repetition counts"),
        ("[]a]", "at offset 1: expected a class member before ']'; escape a literal one as \\]"),
        ("[z-a]", "at offset 4: the range z-a is reversed"),
        ("[a-", "at offset 0: expected ']' to close the class"),
        ("[[:alpha:]]", "at offset 1: nested classes and set operations are not supported; escape a literal [ as \\["),
        ("[a&&b]", "at offset 2: class set operations ('&&') are not supported"),
        ("(ab", "at offset 0: expected ')' to close the group"),
        ("ab)", "at offset 2: an unmatched ')'; escape a literal one as \\)"),
        ("\\bword", "at offset 0: the anchor \\b is not supported; use ^ and $"),
        ("\\p{L}", "at offset 0: the escape \\p is not supported"),
        ("a\\", "at offset 2: a pattern cannot end in a lone backslash"),
        ("^*", "at offset 1: an anchor cannot be repeated"),
    ])
    func unsupportedSyntaxIsRefusedWithItsPlace(pattern: String, message: String) {
        #expect(throws: LinearRegexError.self) { try LinearRegex(pattern) }
        do {
            _ = try LinearRegex(pattern)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func unicodeScalarsMatchOneByOne() async throws {
        let word = try LinearRegex("\\w+")
        #expect(word.wholeMatch("Grüße"))
        #expect(try LinearRegex("\\d+").wholeMatch("٣٤"))
        #expect(try LinearRegex(".").wholeMatch("é"))
        #expect(try !LinearRegex(".").wholeMatch("\n"))
    }
}
