import CYAML
import ConfigFormat

/// One libyaml parser event, copied into Swift values so that the C event can be freed at once.
struct ParserEvent {
    /// What the event says, with the parts of its data the reader uses.
    enum Kind {
        case streamStart
        case streamEnd
        case documentStart
        case documentEnd
        /// `*name`: a reference to an earlier anchored node.
        case alias(String)
        /// A scalar; `quoted` is false only for the plain style.
        case scalar(String, quoted: Bool)
        case sequenceStart
        case sequenceEnd
        case mappingStart
        case mappingEnd
    }

    var kind: Kind
    /// The `&name` on a scalar, sequence or mapping.
    var anchor: String?
    /// The resolved tag (`tag:yaml.org,2002:str` for `!!str`) on a scalar, sequence or mapping.
    var tag: String?
    /// Where the event starts, 1-based.
    var mark: SourceMark

    /// Copies `event`, whose marks are 0-based.
    init(_ event: yaml_event_t) {
        mark = SourceMark(libyaml: event.start_mark)
        anchor = nil
        tag = nil
        switch event.type {
        case YAML_STREAM_START_EVENT:
            kind = .streamStart
        case YAML_DOCUMENT_START_EVENT:
            kind = .documentStart
        case YAML_DOCUMENT_END_EVENT:
            kind = .documentEnd
        case YAML_ALIAS_EVENT:
            kind = .alias(Self.string(event.data.alias.anchor) ?? "")
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
            kind = .scalar(String(decoding: bytes, as: UTF8.self), quoted: scalar.style != YAML_PLAIN_SCALAR_STYLE)
            anchor = Self.string(scalar.anchor)
            tag = Self.string(scalar.tag)
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            anchor = Self.string(event.data.sequence_start.anchor)
            tag = Self.string(event.data.sequence_start.tag)
        case YAML_SEQUENCE_END_EVENT:
            kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            anchor = Self.string(event.data.mapping_start.anchor)
            tag = Self.string(event.data.mapping_start.tag)
        case YAML_MAPPING_END_EVENT:
            kind = .mappingEnd
        default:
            // YAML_NO_EVENT: libyaml returns it only after the stream end, which the reader never reads past.
            kind = .streamEnd
        }
    }

    /// A NUL-terminated libyaml string (anchor or tag), or nil.
    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension SourceMark {
    /// A libyaml mark (0-based line and column, columns counted in characters) made 1-based.
    init(libyaml mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}
