/// Why a Template file cannot be used: the file, the line and column of a JSON error, the field, and what was expected.
package struct TemplateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the manifest names it.
    package var file: String
    /// The place of a syntax error; nil for a problem of the content, which `field` names.
    package var line: Int?
    package var column: Int?
    /// The dotted path of the member (`steps.resize.robot`), empty for the document.
    package var field: String
    package var message: String

    package init(file: String, line: Int? = nil, column: Int? = nil, field: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `FILE:LINE:COLUMN: field: message`, the place as precise as it is known, on one line.
    package var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): " + (field.isEmpty ? message : "\(field): \(message)")
    }
}
