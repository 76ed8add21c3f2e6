import AssemblyLine
import ConfigFormat
import YAMLReader

/// A configuration file that parsed but did not validate, with its text so that each issue can quote its line.
struct InvalidConfigFile: Error, Sendable, CustomStringConvertible {
    var source: SourceText
    var error: ConfigError
    /// False for a file whose lines hold secrets (Template Credentials): each issue is its place and field alone.
    var quotesLines = true

    /// Each issue as `FILE:LINE:COL: field: message`, its line and a caret (unless ``quotesLines`` is false), then a count.
    var description: String {
        let blocks = error.issues.map { issue in
            quotesLines
                ? source.render(mark: issue.mark, message: issue.field.isEmpty ? issue.message : "\(issue.field): \(issue.message)")
                : issue.description
        }
        let count = error.issues.count
        return blocks.joined(separator: "\n") + "\n\(count) error\(count == 1 ? "" : "s") in \(source.file)"
    }
}
