package import ConfigFormat

/// Reads one YAML document (JSON included, YAML being its superset) into a `ConfigNode` tree.
///
/// The reader runs libyaml's event parser and builds the tree from its events:
///
/// - Marks are 1-based. Columns count Unicode scalars (libyaml's count), so `é: 1` has its
///   value at column 4, whatever the byte length of `é`; a tab counts as one column.
/// - Scalars are `quoted: true` when they are single- or double-quoted, literal (`|`) or
///   folded (`>`) block scalars, or tagged `!!str` or `!`: all of them are strings.
///   Plain scalars are `quoted: false`; the domain decides what `yes`, `12` or `~` mean.
/// - An input with no document (empty, or only comments) or whose one document is empty
///   (`---` alone) is an empty mapping at 1:1, so that an empty manifest reports its missing
///   keys rather than a type error.
/// - A second document (`---` after the first) is an error at its start.
/// - An alias `*a` is a copy of the node anchored `&a`; the copy's root has the alias's mark,
///   the nodes inside it keep the marks where they were written. All aliases together may
///   expand to at most ``maxAliasNodes`` nodes ("billion laughs" documents are refused), and
///   an alias inside the node it names is refused.
/// - A plain `<<` key merges a mapping, or a sequence of mappings, into the mapping holding
///   it: keys written in the mapping win, then earlier merged mappings win over later ones.
///   Merged entries take the place of the `<<` entry and keep their own marks.
/// - A key appearing twice in a mapping is an error (keys compare by text, so `a` and `"a"`
///   are the same key). Keys must be scalars.
/// - Tags other than `!!str` and `!` (and `!!seq`, `!!map` on their own kinds) are refused.
/// - Nesting deeper than ``maxDepth`` collections is refused.
package enum YAMLReader {
    /// The most nodes that aliases may add to a document, all aliases together.
    package static let maxAliasNodes = 100_000
    /// The deepest nesting of sequences and mappings accepted.
    package static let maxDepth = 256

    /// Parses `text`; `file` names it in error messages.
    ///
    /// - Throws: ``YAMLError`` with the line and column of the first problem.
    package static func parse(_ text: String, file: String) throws(YAMLError) -> ConfigNode {
        try parse(SourceText(file: file, text: text))
    }

    /// Parses a source text; keep the `SourceText` to render later errors about the tree
    /// with ``SourceText/render(mark:message:)``.
    ///
    /// - Throws: ``YAMLError`` with the line and column of the first problem.
    package static func parse(_ source: SourceText) throws(YAMLError) -> ConfigNode {
        var builder = try NodeBuilder(source: source)
        return try builder.document()
    }
}
