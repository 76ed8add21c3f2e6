import ConfigFormat

/// A row as its format wrote it, before its values are checked: each value with the column it starts at.
struct URLListRecord {
    /// Why a row's form is not its format's, and the byte it is at: the reader adds the file and the line.
    struct Fault: Error {
        var problem: URLListError.Problem
        var column: Int

        init(_ problem: URLListError.Problem, column: Int) {
            self.problem = problem
            self.column = column
        }
    }

    /// A value of the row and the byte it starts at, from 1.
    struct Cell {
        var text: String
        var column: Int
    }

    var line: Int
    var url: Cell
    var name: Cell?
    var etag: Cell?
    var size: Cell?
    var lastModified: Cell?
    var fields: [(name: String, value: JSONValue, column: Int)] = []

    /// The entry the row gives, or why it is skipped: its URL, name, identity and fields checked in that order.
    func checked(by rule: InputURLRule) -> URLListRow {
        if let refusal = rule.refusal(of: url.text) { return skipped(url.column, .url(refusal)) }
        var outputName = URLOutputName.derived(from: url.text)
        if let name {
            if let problem = URLOutputName.problem(with: name.text) { return skipped(name.column, .name(problem)) }
            outputName = name.text
        }
        var identity = URLIdentity()
        var cell = url
        do throws(URLIdentity.Problem) {
            if let etag { cell = etag; identity.etag = try URLIdentity.etag(etag.text) }
            if let size { cell = size; identity.size = try URLIdentity.size(size.text) }
            if let lastModified { cell = lastModified; identity.lastModified = try URLIdentity.lastModified(lastModified.text) }
        } catch {
            return skipped(cell.column, .identity(error))
        }
        var values: [String: JSONValue] = [:]
        for field in fields {
            guard Self.isFieldName(field.name), Self.isScalar(field.value) else { return skipped(field.column, .field(field.name)) }
            values[field.name] = field.value
        }
        return .entry(URLListEntry(url: url.text, outputName: outputName, fields: values, identity: identity, line: line))
    }

    private func skipped(_ column: Int, _ problem: URLListSkippedRow.Problem) -> URLListRow {
        .skipped(URLListSkippedRow(line: line, column: column, url: url.text, problem: problem))
    }

    /// 1 to 64 ASCII letters, digits, `_` or `-`.
    private static func isFieldName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .integer, .number, .bool: true
        case .null, .array, .object: false
        }
    }
}
