/// A regular expression matched in time linear in the text: compiled to a Thompson NFA and run as a Pike VM.
///
/// A backtracking engine (Swift's `Regex` is one) can take exponential time on patterns such as
/// `(a+)+b`: a caller who controls the text holds a core for as long as it likes. Here every
/// scalar of the text is looked at once by each instruction at most, so a match costs at most
/// `text.unicodeScalars.count × program.count` steps, and the program is bounded when the
/// pattern is parsed (``maxInstructions``).
///
/// The syntax is the common subset: literals and `\`-escapes, `.`, classes `[a-z0-9_-]` and
/// `[^…]`, `\d \D \w \W \s \S`, groups `(…)` `(?:…)` `(?<name>…)`, alternation `|`, the
/// quantifiers `* + ? {n} {n,} {n,m}` (with or without a lazy `?`, which cannot change a whole
/// match), and `^` `$`. Back-references, lookaround, atomic groups, possessive quantifiers, word
/// boundaries, property classes and inline options are refused when the pattern is parsed: they
/// either cannot be matched in linear time or are rare enough in a signing policy not to be worth it.
/// Text is matched scalar by scalar (`.` is one Unicode scalar other than a line feed).
///
/// ```swift
/// let album = try LinearRegex("[a-z0-9-]{1,64}")
/// album.wholeMatch("summer-2026")   // true
/// album.wholeMatch("../etc")        // false
/// ```
package struct LinearRegex: Sendable {
    /// One step of the compiled program.
    enum Instruction: Sendable, Hashable {
        /// Consume one scalar the matcher accepts.
        case scalar(ScalarMatcher)
        /// Go on at both targets.
        case split(Int, Int)
        case jump(Int)
        /// Go on only at the start of the text.
        case atStart
        /// Go on only at the end of the text.
        case atEnd
        case match
    }

    /// The most instructions a compiled pattern may have (a bound on the cost of each scalar).
    package static let maxInstructions = 4_096
    /// The largest count a `{n,m}` quantifier may name.
    package static let maxRepetition = 1_000

    let program: [Instruction]

    /// Parses and compiles `pattern`.
    ///
    /// - Throws: ``LinearRegexError`` naming the position and what was expected.
    package init(_ pattern: String) throws(LinearRegexError) {
        var parser = LinearRegexParser(pattern)
        let tree = try parser.parseWhole()
        var program: [Instruction] = []
        tree.compile(into: &program)
        program.append(.match)
        guard program.count <= Self.maxInstructions else {
            throw LinearRegexError(offset: 0, "the pattern is too large (over \(Self.maxInstructions) steps compiled); use smaller repetition counts")
        }
        self.program = program
    }

    /// True when the whole of `text` matches.
    package func wholeMatch(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var current = ThreadList(size: program.count)
        var next = ThreadList(size: program.count)
        add(0, to: &current, atStart: true, atEnd: scalars.isEmpty)
        for (index, scalar) in scalars.enumerated() {
            guard !current.isEmpty else { return false }
            next.clear()
            let atEnd = index == scalars.count - 1
            for pc in current.pcs {
                if case let .scalar(matcher) = program[pc], matcher.matches(scalar) {
                    add(pc + 1, to: &next, atStart: false, atEnd: atEnd)
                }
            }
            swap(&current, &next)
        }
        return current.pcs.contains { program[$0] == .match }
    }

    /// Adds the thread at `start` and every thread reachable from it without consuming a scalar.
    private func add(_ start: Int, to list: inout ThreadList, atStart: Bool, atEnd: Bool) {
        var stack = [start]
        while let pc = stack.popLast() {
            guard list.mark(pc) else { continue }
            switch program[pc] {
            case let .jump(target): stack.append(target)
            case let .split(first, second): stack.append(second); stack.append(first)
            case .atStart: if atStart { stack.append(pc + 1) }
            case .atEnd: if atEnd { stack.append(pc + 1) }
            case .scalar, .match: list.pcs.append(pc)
            }
        }
    }

    /// The threads at one position: program counters, each at most once (a generation-stamped set).
    private struct ThreadList {
        var pcs: [Int] = []
        private var stamps: [Int]
        private var generation = 1

        init(size: Int) {
            stamps = Array(repeating: 0, count: size)
        }

        var isEmpty: Bool { pcs.isEmpty }

        /// Marks `pc`; false when it was marked already at this position.
        mutating func mark(_ pc: Int) -> Bool {
            guard stamps[pc] != generation else { return false }
            stamps[pc] = generation
            return true
        }

        mutating func clear() {
            pcs.removeAll(keepingCapacity: true)
            generation += 1
        }
    }
}

/// Why a pattern is not one ``LinearRegex`` accepts: where (a 0-based offset in scalars) and what was expected.
package struct LinearRegexError: Error, Sendable, Hashable, CustomStringConvertible {
    package let offset: Int
    package let message: String

    init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "at offset \(offset): \(message)" }
}
