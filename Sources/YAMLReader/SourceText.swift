package import ConfigFormat

/// The text of one configuration file, kept so that errors can quote the offending line.
///
/// Parse errors and errors found later in the `ConfigNode` tree (by a manifest or policy
/// validator) share one format through ``render(mark:message:)``:
///
/// ```text
/// manifest.yaml:3:7: expected a size such as 512KiB
/// size: lots
///       ^
/// ```
///
/// Lines end at `\n`, `\r\n`, `\r`, U+0085, U+2028 and U+2029, as libyaml counts them.
/// Columns count Unicode scalars from 1, as libyaml does: `é` (U+00E9) is one column,
/// a tab is one column. A leading byte order mark is not part of line 1.
/// This type imports no C module, so it could move to the domain module unchanged.
package struct SourceText: Sendable, Hashable {
    /// The file name shown in messages (as given, usually the path the user typed).
    package let file: String
    /// The whole text.
    package let text: String

    /// Lines longer than this many scalars are shown as a window around the column.
    static let snippetWidth = 120

    package init(file: String, text: String) {
        self.file = file
        self.text = text
    }

    /// The text of line `number` (1-based) without its line break, or nil past the last line.
    ///
    /// Text ending in a line break has an empty last line after it, where libyaml reports
    /// the end of the input.
    package func line(at number: Int) -> Substring? {
        guard number >= 1 else { return nil }
        var found: Range<String.Index>?
        var current = 0
        forEachLine { range in
            current += 1
            if current == number { found = range }
            return current < number
        }
        return found.map { text.unicodeScalars[$0] }.map { Substring($0) }
    }

    /// The message in the shared format: `FILE:LINE:COL: message`, the line, and a caret under the column.
    package func render(mark: SourceMark, message: String) -> String {
        Self.format(file: file, mark: mark, message: message, snippet: snippet(at: mark))
    }

    /// The offending line and, under it, a caret at the column; nil when the line does not exist.
    ///
    /// Tabs before the column are kept in the padding, so the caret lines up in a terminal;
    /// every other character before it becomes one space.
    package func snippet(at mark: SourceMark) -> String? {
        guard let line = line(at: mark.line) else { return nil }
        let scalars = Array(line.unicodeScalars)
        let caretIndex = max(mark.column - 1, 0)
        let windowStart = max(0, min(caretIndex - Self.snippetWidth / 2, scalars.count - Self.snippetWidth))
        let windowEnd = min(scalars.count, windowStart + Self.snippetWidth)
        var shown = windowStart > 0 ? "…" : ""
        var padding = windowStart > 0 ? " " : ""
        shown.unicodeScalars.append(contentsOf: scalars[windowStart..<windowEnd])
        if windowEnd < scalars.count { shown += "…" }
        var before = String.UnicodeScalarView()
        before.append(contentsOf: scalars[windowStart..<min(caretIndex, scalars.count)])
        for character in String(before) {
            padding.append(character == "\t" ? "\t" : " ")
        }
        padding += String(repeating: " ", count: max(0, caretIndex - scalars.count))
        return shown + "\n" + padding + "^"
    }

    /// The position of the byte at `offset` in the UTF-8 text (clamped to the end).
    func mark(atUTF8Offset offset: Int) -> SourceMark {
        let utf8 = text.utf8
        let target = utf8.index(utf8.startIndex, offsetBy: min(max(offset, 0), utf8.count))
        var mark = SourceMark(line: 1, column: 1)
        var number = 0
        forEachLine { range in
            number += 1
            guard target <= range.upperBound else { return true }
            let prefix = text.unicodeScalars[range.lowerBound..<max(range.lowerBound, target)]
            mark = SourceMark(line: number, column: prefix.count + 1)
            return false
        }
        return mark
    }

    /// The position just after the last character of the text.
    var endMark: SourceMark {
        var mark = SourceMark(line: 1, column: 1)
        var number = 0
        forEachLine { range in
            number += 1
            mark = SourceMark(line: number, column: text.unicodeScalars[range].count + 1)
            return true
        }
        return mark
    }

    /// The shared layout of located messages: one summary line, then the snippet if there is one.
    static func format(file: String, mark: SourceMark?, message: String, snippet: String?) -> String {
        let summary = mark.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
        return snippet.map { summary + "\n" + $0 } ?? summary
    }

    /// Calls `body` with the range of each line, without its break, until it returns false.
    private func forEachLine(_ body: (Range<String.Index>) -> Bool) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        if start < scalars.endIndex, scalars[start] == "\u{FEFF}" {
            start = scalars.index(after: start)
        }
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                guard body(start..<index) else { return }
                index = scalars.index(after: index)
                if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" {
                    index = scalars.index(after: index)
                }
                start = index
            default:
                index = scalars.index(after: index)
            }
        }
        _ = body(start..<scalars.endIndex)
    }
}
