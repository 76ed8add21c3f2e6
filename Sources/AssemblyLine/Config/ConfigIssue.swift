/// One thing wrong in a configuration file: where it is, which field, and what was expected.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String
    public var mark: SourceMark
    /// The dotted path of the field (`shards.files`), empty for the document itself.
    public var field: String
    public var message: String

    public init(file: String, mark: SourceMark, field: String, message: String) {
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    /// `FILE:LINE:COL: field: message`, one line.
    public var description: String {
        let subject = field.isEmpty ? message : "\(field): \(message)"
        return "\(file):\(mark.line):\(mark.column): \(subject)"
    }
}

/// Every issue of one configuration file, reported together, in document order.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var issues: [ConfigIssue]

    public init(issues: [ConfigIssue]) {
        self.issues = issues.sorted { $0.mark < $1.mark }
    }

    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
