package import ConfigFormat

/// Why a YAML file could not be read or turned into a `ConfigNode` tree, and where.
///
/// `description` is the summary line `FILE:LINE:COL: message`, then the offending line and a
/// caret under the column (the format of ``SourceText/render(mark:message:)``). An error about
/// the whole file (it cannot be read, it is too large) has no mark and prints `FILE: message`.
package struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the reader.
    package let file: String
    /// Where the problem is (1-based line and column), or nil when it concerns the whole file.
    package let mark: SourceMark?
    /// What is wrong, without the location: `duplicate key 'size' (first at 3:1)`.
    package let message: String
    /// The offending line and a caret under the column, or nil without a mark.
    package let snippet: String?

    /// An error located in `source`, quoting its line.
    init(source: SourceText, mark: SourceMark, message: String) {
        self.file = source.file
        self.mark = mark
        self.message = message
        self.snippet = source.snippet(at: mark)
    }

    /// An error about the whole file.
    init(file: String, message: String) {
        self.file = file
        self.mark = nil
        self.message = message
        self.snippet = nil
    }

    /// The same error without the line it quotes: for a file whose lines hold secrets.
    package var unquoted: YAMLError {
        YAMLError(file: file, mark: mark, message: message)
    }

    /// An error at `mark` that quotes nothing.
    private init(file: String, mark: SourceMark?, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
        self.snippet = nil
    }

    /// The one-line form, without the snippet: `FILE:LINE:COL: message` or `FILE: message`.
    package var summary: String {
        SourceText.format(file: file, mark: mark, message: message, snippet: nil)
    }

    package var description: String {
        SourceText.format(file: file, mark: mark, message: message, snippet: snippet)
    }
}
