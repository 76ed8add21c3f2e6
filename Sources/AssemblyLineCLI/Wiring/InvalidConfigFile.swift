import AssemblyLine
import ConfigFormat
import YAMLReader

/// A configuration file that parsed but did not validate, with its text so that each issue can quote its line.
struct InvalidConfigFile: Error, Sendable, CustomStringConvertible {
    var source: SourceText
    var error: ConfigError

    /// Each issue as `FILE:LINE:COL: field: message`, its line and a caret, then a count.
    var description: String {
        let blocks = error.issues.map { issue in
            source.render(mark: issue.mark, message: issue.field.isEmpty ? issue.message : "\(issue.field): \(issue.message)")
        }
        let count = error.issues.count
        return blocks.joined(separator: "\n") + "\n\(count) error\(count == 1 ? "" : "s") in \(source.file)"
    }
}
