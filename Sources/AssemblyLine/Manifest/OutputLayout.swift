/// The template of a result's path below `output.dir`, such as `{step}/{relpath}.{ext}`.
///
/// Placeholders: `{run}` the run ID, `{step}` the Step that made the result, `{shard}` the shard's
/// index, `{relpath}` the input's path relative to `inputs.base` without its extension, `{dir}` the
/// directory part of that path (`.` at the top), `{stem}` the input's file name without its
/// extension, `{ext}` the step's `format` in the recipe (else the input's extension), `{name}`
/// `<stem>.<ext>`, `{input_ext}` the input's own extension (what keeps `photo.jpg` and `photo.png`
/// apart when both become `jpg`). A result made from several inputs takes `{stem}` and `{name}` from the name the
/// service gave it, reduced to one safe file name (``SafeFileName``).
package struct OutputLayout: Sendable, Hashable, CustomStringConvertible {
    /// The placeholders a layout may use.
    package enum Placeholder: String, Sendable, CaseIterable {
        case run, step, shard, relpath, dir, stem, ext, name
        case inputExt = "input_ext"
    }

    enum Piece: Sendable, Hashable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// Why a layout text is not a layout.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownPlaceholder(String)
        case unclosedBrace
        case absolute
        case climbs
        case notUnique

        package var description: String {
            let known = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
            switch self {
            case .unknownPlaceholder(let name): return "unknown placeholder {\(name)}; expected one of \(known)"
            case .unclosedBrace: return "a '{' is not closed; expected placeholders such as {relpath}"
            case .absolute: return "expected a path relative to output.dir, found one starting with '/'"
            case .climbs: return "expected a path that stays inside output.dir, found a '..' component"
            case .notUnique: return "expected {relpath}, {stem} or {name} in the layout, so that results do not overwrite each other"
            }
        }
    }

    /// The text as written in the manifest.
    package let description: String
    let pieces: [Piece]

    package init(_ text: String) throws(Failure) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw .unclosedBrace }
            let name = String(rest[rest.index(after: open)..<close])
            guard let placeholder = Placeholder(rawValue: name) else { throw .unknownPlaceholder(name) }
            pieces.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        guard !text.hasPrefix("/") else { throw .absolute }
        guard !text.split(separator: "/").contains("..") else { throw .climbs }
        let unique: Set<Placeholder> = [.relpath, .stem, .name]
        guard pieces.contains(where: { if case .placeholder(let p) = $0 { return unique.contains(p) } else { return false } }) else {
            throw .notUnique
        }
        self.description = text
        self.pieces = pieces
    }

    /// The relative path of one result, with each placeholder's value; `..` components from values are dropped.
    package func render(_ value: (Placeholder) -> String) -> String {
        var text = ""
        // One buffer for a path's usual length, not one grown at each piece (a plan renders a million).
        text.reserveCapacity(128)
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .placeholder(let placeholder): text += value(placeholder)
            }
        }
        guard !PathText.hasOnlyPlainNames(text.utf8) else { return text }
        return text.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
    }
}
