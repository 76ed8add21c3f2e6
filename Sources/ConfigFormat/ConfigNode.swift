/// A position in a configuration file, 1-based, as an editor shows it.
package struct SourceMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourceMark, rhs: SourceMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    package var description: String { "\(line):\(column)" }
}

/// A parsed YAML or JSON document: scalars, sequences and mappings, each with the mark where it starts.
///
/// The domain reads manifests, policies and templates from this tree, so that it never touches
/// the parser's C library; the `YAMLReader` module builds it.
package struct ConfigNode: Sendable, Hashable {
    /// One key and its value in a mapping, in document order.
    package struct Entry: Sendable, Hashable {
        package var key: ConfigNode
        package var value: ConfigNode

        package init(key: ConfigNode, value: ConfigNode) {
            self.key = key
            self.value = value
        }
    }

    /// What a node holds.
    package indirect enum Content: Sendable, Hashable {
        /// A scalar's text; `quoted` is true for single- or double-quoted scalars, which are always strings.
        case scalar(String, quoted: Bool)
        case sequence([ConfigNode])
        case mapping([Entry])
    }

    package var content: Content
    package var mark: SourceMark

    package init(_ content: Content, at mark: SourceMark) {
        self.content = content
        self.mark = mark
    }
}
