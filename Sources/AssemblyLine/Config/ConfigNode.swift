/// A position in a configuration file, 1-based, as an editor shows it.
public struct SourceMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceMark, rhs: SourceMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// A parsed YAML or JSON document: scalars, sequences and mappings, each with the mark where it starts.
///
/// The domain reads manifests, policies and templates from this tree, so that it never touches
/// the parser's C library; the `YAMLReader` module builds it.
public struct ConfigNode: Sendable, Hashable {
    /// One key and its value in a mapping, in document order.
    public struct Entry: Sendable, Hashable {
        public var key: ConfigNode
        public var value: ConfigNode

        public init(key: ConfigNode, value: ConfigNode) {
            self.key = key
            self.value = value
        }
    }

    /// What a node holds.
    public indirect enum Content: Sendable, Hashable {
        /// A scalar's text; `quoted` is true for single- or double-quoted scalars, which are always strings.
        case scalar(String, quoted: Bool)
        case sequence([ConfigNode])
        case mapping([Entry])
    }

    public var content: Content
    public var mark: SourceMark

    public init(_ content: Content, at mark: SourceMark) {
        self.content = content
        self.mark = mark
    }
}
