/// Why a glob could not be compiled or a plan could not be made.
///
/// Every case names the pattern or path it is about, so the one-line `description` is enough
/// for an operator to find the problem. The CLI maps them to exit code 65 (invalid input), but a base
/// directory that is not there to 66 (no input).
package enum PlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A glob pattern that cannot be compiled; `position` is the 1-based character where the problem is.
    case malformedPattern(pattern: String, position: Int, reason: String)
    /// A relative pattern reached the planner, which needs absolute ones (resolve against the manifest's directory).
    case relativePattern(pattern: String)
    /// The base directory is not an absolute path.
    case relativeBase(base: String)
    /// The base directory does not exist, or is a file: there is no input to read, which differs from a base that holds no match.
    case missingBase(base: String, isFile: Bool)
    /// No include pattern was given.
    case noIncludePatterns
    /// A shard limit below 1.
    case invalidLimit(name: String, value: Int64)
    /// A matched file whose path does not lie under the base directory; `others` counts further such files.
    case outsideBase(path: String, base: String, others: Int)
    /// Nothing matched the include patterns (after excludes).
    case noMatch(patterns: [String])
    /// No row of the URL list `list` is an input: it has none, or each was left out (a warning each).
    case noListedInput(list: String)
    /// The output layout gives two inputs (relative paths) one output path; `others` counts further such pairs.
    case sharedOutput(output: String, first: String, second: String, others: Int)

    package var description: String {
        switch self {
        case let .malformedPattern(pattern, position, reason):
            return "glob pattern '\(pattern)', position \(position): \(reason)"
        case let .relativePattern(pattern):
            return "glob pattern '\(pattern)' is relative; expected an absolute pattern or a directory to resolve it against"
        case let .relativeBase(base):
            return "base directory '\(base)' is relative; expected an absolute path"
        case let .missingBase(base, isFile):
            return "the input directory '\(base)' (inputs.base) " + (isFile ? "is a file, not a directory" : "does not exist")
        case .noIncludePatterns:
            return "no include pattern given; expected at least one glob"
        case let .invalidLimit(name, value):
            return "shard limit \(name) is \(value); expected a number of at least 1"
        case let .outsideBase(path, base, others):
            let more = others > 0 ? " (and \(others) more)" : ""
            return "input file '\(path)' is outside the base directory '\(base)'\(more); outputs mirror paths relative to the base"
        case let .noMatch(patterns):
            let list = patterns.map { "'\($0)'" }.joined(separator: ", ")
            return "no file matches the include patterns \(list)"
        case let .noListedInput(list):
            return "no row of the URL list '\(list)' is an input; expected at least one row the globs take and that is not left out"
        case let .sharedOutput(output, first, second, others):
            let more = others > 0 ? " (and \(others) more such pairs)" : ""
            let (firstStem, firstExt) = PathText.stemAndExtension(of: first)
            let (secondStem, secondExt) = PathText.stemAndExtension(of: second)
            let advice = firstStem == secondStem && firstExt != secondExt
                ? "{step}/{relpath}.{input_ext}.{ext}, which keeps each input's own extension"
                : "{step}/{relpath}.{ext}, which mirrors the inputs' paths"
            return "output.layout gives the inputs '\(first)' and '\(second)' one output, \(output)\(more); "
                + "expected a layout that keeps them apart, such as \(advice)"
        }
    }
}
