/// A parsed ``LinearRegex`` pattern, before it is compiled to instructions.
indirect enum RegexNode: Sendable, Hashable {
    case scalar(ScalarMatcher)
    case atStart
    case atEnd
    case sequence([RegexNode])
    case choice([RegexNode])
    /// `min` or more times, at most `max` (nil: no upper bound).
    case repeated(RegexNode, min: Int, max: Int?)

    /// How many instructions ``compile(into:)`` emits, saturating at `Int.max`.
    var instructionCount: Int {
        switch self {
        case .scalar, .atStart, .atEnd:
            return 1
        case let .sequence(items):
            return items.reduce(0) { Self.add($0, $1.instructionCount) }
        case let .choice(branches):
            return Self.add(branches.reduce(0) { Self.add($0, $1.instructionCount) }, 2 * (branches.count - 1))
        case let .repeated(node, min, max):
            let size = node.instructionCount
            let optional = max.map { Self.multiply($0 - min, Self.add(size, 1)) } ?? Self.add(size, 2)
            return Self.add(Self.multiply(min, size), optional)
        }
    }

    /// Appends this node's instructions (a Thompson construction) to `program`.
    func compile(into program: inout [LinearRegex.Instruction]) {
        switch self {
        case let .scalar(matcher):
            program.append(.scalar(matcher))
        case .atStart:
            program.append(.atStart)
        case .atEnd:
            program.append(.atEnd)
        case let .sequence(items):
            for item in items { item.compile(into: &program) }
        case let .choice(branches):
            var exits: [Int] = []
            for branch in branches.dropLast() {
                let split = program.count
                program.append(.jump(0))
                branch.compile(into: &program)
                exits.append(program.count)
                program.append(.jump(0))
                program[split] = .split(split + 1, program.count)
            }
            branches.last?.compile(into: &program)
            for exit in exits { program[exit] = .jump(program.count) }
        case let .repeated(node, min, max):
            for _ in 0..<min { node.compile(into: &program) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.jump(0))
                    node.compile(into: &program)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.jump(0))
                node.compile(into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }

    private static func add(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? .max : sum
    }

    private static func multiply(_ lhs: Int, _ rhs: Int) -> Int {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow ? .max : product
    }
}

/// The test one instruction applies to one scalar.
enum ScalarMatcher: Sendable, Hashable {
    case literal(Unicode.Scalar)
    /// `.`: any scalar but a newline.
    case anyButNewline
    case set(ScalarSet)

    func matches(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case let .literal(literal): return literal == scalar
        case .anyButNewline: return !Character(scalar).isNewline
        case let .set(set): return set.contains(scalar)
        }
    }
}

/// A class of scalars: `[a-z_]`, `[^0-9]`, `\d`, `\W`.
struct ScalarSet: Sendable, Hashable {
    /// The classes `\d`, `\w` and `\s` stand for.
    enum Builtin: Sendable, Hashable {
        case digit, word, space

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let properties = scalar.properties
            switch self {
            case .digit: return properties.numericType == .decimal
            case .word: return properties.isAlphabetic || properties.numericType == .decimal || scalar == "_"
            case .space: return properties.isWhitespace
            }
        }
    }

    /// One member of a class.
    enum Member: Sendable, Hashable {
        case range(ClosedRange<UInt32>)
        case builtin(Builtin, negated: Bool)
    }

    var members: [Member] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let inside = members.contains { member in
            switch member {
            case let .range(range): return range.contains(scalar.value)
            case let .builtin(builtin, negated): return builtin.contains(scalar) != negated
            }
        }
        return inside != negated
    }
}
