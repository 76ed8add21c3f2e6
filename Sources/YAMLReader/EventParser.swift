import CYAML
import ConfigFormat

/// Owns one libyaml parser (`yaml_parser_t`) reading a source text, and hands out its events in order.
///
/// The parser and a copy of the input bytes live on the heap for the parser's whole life:
/// libyaml keeps a pointer to the parser inside itself and reads the bytes lazily.
final class EventParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let source: SourceText

    init(source: SourceText) throws(YAMLError) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        // On failure yaml_parser_initialize frees what it allocated, so only our memory is left.
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw YAMLError(file: source.file, message: "libyaml could not allocate a parser")
        }
        let utf8 = source.text.utf8
        input = .allocate(capacity: max(utf8.count, 1))
        _ = input.initialize(from: utf8)
        yaml_parser_set_input_string(parser, input.baseAddress, utf8.count)
        self.parser = parser
        self.source = source
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event; after an error libyaml stops, so callers stop too.
    func next() throws(YAMLError) -> ParserEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw currentError() }
        defer { yaml_event_delete(&event) }
        return ParserEvent(event)
    }

    /// The parser's error state as a located ``YAMLError``.
    private func currentError() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(file: source.file, message: "libyaml ran out of memory")
        case YAML_READER_ERROR:
            let mark = source.mark(atUTF8Offset: state.problem_offset)
            let value = state.problem_value >= 0 ? ": U+" + hex(state.problem_value) : ""
            return YAMLError(source: source, mark: mark, message: problem + value)
        default:
            return syntaxError(problem: problem, state: state)
        }
    }

    /// A scanner or parser error: placed at the problem, or at the context's start when the
    /// problem is the end of the input (an unclosed quote shows its opening quote).
    private func syntaxError(problem: String, state: yaml_parser_t) -> YAMLError {
        let problemMark = SourceMark(libyaml: state.problem_mark)
        if isTab(at: problemMark), problem == "found character that cannot start any token" {
            return YAMLError(source: source, mark: problemMark, message: "found a tab character that cannot start any token (indent with spaces, not tabs)")
        }
        guard let context = state.context.map({ String(cString: $0) }) else {
            return YAMLError(source: source, mark: problemMark, message: problem)
        }
        let contextMark = SourceMark(libyaml: state.context_mark)
        if problemMark >= source.endMark, contextMark < problemMark {
            return YAMLError(source: source, mark: contextMark, message: "\(problem) \(context) that starts here")
        }
        if contextMark == problemMark {
            return YAMLError(source: source, mark: problemMark, message: "\(problem) \(context)")
        }
        return YAMLError(source: source, mark: problemMark, message: "\(problem) \(context) that starts at \(contextMark)")
    }

    /// Whether the character at `mark` is a tab.
    private func isTab(at mark: SourceMark) -> Bool {
        guard let line = source.line(at: mark.line), mark.column >= 1 else { return false }
        return line.unicodeScalars.dropFirst(mark.column - 1).first == "\t"
    }

    /// A code point as at least four uppercase hex digits, as in `U+0001`.
    private func hex(_ value: Int32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
