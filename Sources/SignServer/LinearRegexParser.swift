/// Reads a ``LinearRegex`` pattern into a tree, refusing what cannot be matched in linear time.
///
/// Recursive descent over the pattern's scalars: alternation of sequences of quantified atoms.
/// Every error names the scalar offset where it was found.
struct LinearRegexParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    /// Groups nested deeper than this are refused (the parser recurses once per level).
    static let maxDepth = 64

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// The whole pattern as one tree.
    mutating func parseWhole() throws(LinearRegexError) -> RegexNode {
        let tree = try parseAlternation()
        if index < scalars.count {
            throw error("an unmatched ')'; escape a literal one as \\)")
        }
        return tree
    }

    // MARK: - Structure

    private mutating func parseAlternation() throws(LinearRegexError) -> RegexNode {
        var branches = [try parseSequence()]
        while peek == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : try checked(.choice(branches))
    }

    private mutating func parseSequence() throws(LinearRegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let next = peek, next != "|", next != ")" {
            let atom = try parseAtom()
            items.append(try parseQuantifiers(on: atom))
        }
        return items.count == 1 ? items[0] : try checked(.sequence(items))
    }

    private mutating func parseQuantifiers(on atom: RegexNode) throws(LinearRegexError) -> RegexNode {
        let start = index
        guard let bounds = try parseQuantifier() else { return atom }
        if case .atStart = atom { throw error("an anchor cannot be repeated", at: start) }
        if case .atEnd = atom { throw error("an anchor cannot be repeated", at: start) }
        if peek == "?" {
            index += 1  // lazy: the same whole match
        } else if peek == "+" {
            throw error("possessive quantifiers are not supported")
        }
        if let next = peek, "*+?{".unicodeScalars.contains(next), try lookaheadIsQuantifier() {
            throw error("a quantifier cannot follow a quantifier; group the first one: (…)")
        }
        return try checked(.repeated(atom, min: bounds.min, max: bounds.max))
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}` at the current position, consumed; nil when there is none.
    private mutating func parseQuantifier() throws(LinearRegexError) -> (min: Int, max: Int?)? {
        switch peek {
        case "*": index += 1; return (0, nil)
        case "+": index += 1; return (1, nil)
        case "?": index += 1; return (0, 1)
        case "{":
            let start = index
            index += 1
            guard let low = readNumber() else { throw error("expected a count after '{'; escape a literal one as \\{", at: start) }
            var high: Int? = low
            if peek == "," {
                index += 1
                high = readNumber()
            }
            guard peek == "}" else { throw error("expected '}' to close the repetition count", at: start) }
            index += 1
            guard low <= LinearRegex.maxRepetition, (high ?? 0) <= LinearRegex.maxRepetition else {
                throw error("repetition counts go up to \(LinearRegex.maxRepetition)", at: start)
            }
            if let high, high < low { throw error("the repetition {\(low),\(high)} has its bounds reversed", at: start) }
            return (low, high)
        default:
            return nil
        }
    }

    private func lookaheadIsQuantifier() throws(LinearRegexError) -> Bool {
        var copy = self
        return try copy.parseQuantifier() != nil
    }

    private mutating func parseAtom() throws(LinearRegexError) -> RegexNode {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "(": return try parseGroup()
        case "[": return .scalar(.set(try parseClass()))
        case ".": return .scalar(.anyButNewline)
        case "^": return .atStart
        case "$": return .atEnd
        case "\\": return .scalar(try parseEscape(inClass: false))
        case "*", "+", "?": throw error("nothing to repeat before '\(scalar)'", at: index - 1)
        case "{": throw error("nothing to repeat before '{'; escape a literal one as \\{", at: index - 1)
        default: return .scalar(.literal(scalar))
        }
    }

    private mutating func parseGroup() throws(LinearRegexError) -> RegexNode {
        let start = index - 1
        if peek == "?" {
            index += 1
            switch peek {
            case ":":
                index += 1
            case "<" where index + 1 < scalars.count && scalars[index + 1] != "=" && scalars[index + 1] != "!":
                index += 1
                while let next = peek, next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" { index += 1 }
                guard peek == ">" else { throw error("expected '>' to end the group's name", at: start) }
                index += 1
            case "=", "!", "<":
                throw error("lookaround cannot be matched in linear time", at: start)
            case ">":
                throw error("atomic groups are not supported", at: start)
            default:
                throw error("inline options and other (?…) groups are not supported", at: start)
            }
        }
        depth += 1
        guard depth <= Self.maxDepth else { throw error("groups nest deeper than \(Self.maxDepth)", at: start) }
        let inner = try parseAlternation()
        depth -= 1
        guard peek == ")" else { throw error("expected ')' to close the group", at: start) }
        index += 1
        return inner
    }

    // MARK: - Classes and escapes

    private mutating func parseClass() throws(LinearRegexError) -> ScalarSet {
        let start = index - 1
        var set = ScalarSet()
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw error("expected ']' to close the class", at: start) }
            if scalar == "]" {
                guard !first else { throw error("expected a class member before ']'; escape a literal one as \\]") }
                index += 1
                return set
            }
            first = false
            if scalar == "[" { throw error("nested classes and set operations are not supported; escape a literal [ as \\[") }
            if let next = scalars.dropFirst(index + 1).first, scalar == next, "&~-".unicodeScalars.contains(scalar) {
                throw error("class set operations ('\(scalar)\(scalar)') are not supported")
            }
            index += 1
            let low: Unicode.Scalar
            if scalar == "\\" {
                switch try parseEscape(inClass: true) {
                case let .literal(literal): low = literal
                case let .set(builtin): set.members.append(contentsOf: builtin.members); continue
                case .anyButNewline: continue
                }
            } else {
                low = scalar
            }
            guard peek == "-", let after = scalars.dropFirst(index + 1).first, after != "]" else {
                set.members.append(.range(low.value...low.value))
                continue
            }
            index += 1
            let highScalar = scalars[index]
            index += 1
            let high: Unicode.Scalar
            if highScalar == "\\" {
                guard case let .literal(literal) = try parseEscape(inClass: true) else {
                    throw error("a range cannot end in a class escape")
                }
                high = literal
            } else {
                high = highScalar
            }
            guard low.value <= high.value else { throw error("the range \(low)-\(high) is reversed") }
            set.members.append(.range(low.value...high.value))
        }
    }

    /// The scalar test a `\` escape stands for; the backslash is already consumed.
    private mutating func parseEscape(inClass: Bool) throws(LinearRegexError) -> ScalarMatcher {
        guard let scalar = peek else { throw error("a pattern cannot end in a lone backslash") }
        index += 1
        switch scalar {
        case "d": return .set(ScalarSet(members: [.builtin(.digit, negated: false)]))
        case "D": return .set(ScalarSet(members: [.builtin(.digit, negated: true)]))
        case "w": return .set(ScalarSet(members: [.builtin(.word, negated: false)]))
        case "W": return .set(ScalarSet(members: [.builtin(.word, negated: true)]))
        case "s": return .set(ScalarSet(members: [.builtin(.space, negated: false)]))
        case "S": return .set(ScalarSet(members: [.builtin(.space, negated: true)]))
        case "t": return .literal("\t")
        case "n": return .literal("\n")
        case "r": return .literal("\r")
        case "f": return .literal("\u{0C}")
        case "v": return .literal("\u{0B}")
        case "x":
            guard index + 2 <= scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 2])), radix: 16),
                  let hex = Unicode.Scalar(value) else { throw error("expected two hex digits after \\x", at: index - 2) }
            index += 2
            return .literal(hex)
        case "1"..."9":
            throw error("back-references cannot be matched in linear time", at: index - 2)
        case "b", "B", "A", "z", "Z", "G":
            throw error("the anchor \\\(scalar) is not supported; use ^ and $", at: index - 2)
        default:
            guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                throw error("the escape \\\(scalar) is not supported", at: index - 2)
            }
            return .literal(scalar)
        }
    }

    // MARK: - Helpers

    private var peek: Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private mutating func readNumber() -> Int? {
        var value: Int?
        while let next = peek, ("0"..."9").contains(next) {
            value = min((value ?? 0) * 10 + Int(next.value - 48), LinearRegex.maxRepetition + 1)
            index += 1
        }
        return value
    }

    /// `node`, unless it would compile to more than ``LinearRegex/maxInstructions`` steps.
    private func checked(_ node: RegexNode) throws(LinearRegexError) -> RegexNode {
        guard node.instructionCount <= LinearRegex.maxInstructions else {
            throw error("the pattern is too large (over \(LinearRegex.maxInstructions) steps compiled); use smaller repetition counts")
        }
        return node
    }

    private func error(_ message: String, at offset: Int? = nil) -> LinearRegexError {
        LinearRegexError(offset: offset ?? index, message)
    }
}
