/// One thing wrong in a configuration file: where it is, which field, and what was expected.
package struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it.
    package var file: String
    package var mark: SourceMark
    /// The dotted path of the field (`shards.files`), empty for the document itself.
    package var field: String
    package var message: String

    package init(file: String, mark: SourceMark, field: String, message: String) {
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    /// `FILE:LINE:COL: field: message`, one line.
    package var description: String {
        let subject = field.isEmpty ? message : "\(field): \(message)"
        return "\(file):\(mark.line):\(mark.column): \(subject)"
    }
}

/// Every issue of one configuration file, reported together, in document order.
package struct ConfigError: Error, Sendable, CustomStringConvertible {
    package var issues: [ConfigIssue]

    package init(issues: [ConfigIssue]) {
        self.issues = issues.sorted { $0.mark < $1.mark }
    }

    package var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
