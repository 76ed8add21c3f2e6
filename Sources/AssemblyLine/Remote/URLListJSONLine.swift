import ConfigFormat

/// A JSON Lines row: one object with `url` and, optionally, `name`, `etag`, `size`, `last_modified` and `fields`.
enum URLListJSONLine {
    private static let keys: Set<String> = ["url", "name", "etag", "size", "last_modified", "fields"]

    /// The record of one line; a null member is no value.
    ///
    /// - Throws: the line is not strict JSON, not an object, has an unknown key, no `url`, or a member of the wrong type.
    static func record(_ bytes: [UInt8], line: Int) throws(URLListRecord.Fault) -> URLListRecord {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw URLListRecord.Fault(.notJSON(error.message), column: error.offset + 1)
        }
        guard let members = value.objectValue else { throw URLListRecord.Fault(.wrongType("a JSON object a line"), column: 1) }
        if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
            throw URLListRecord.Fault(.unknownKey(unknown), column: 1)
        }
        guard let url = try text(members, "url"), !url.text.isEmpty else { throw URLListRecord.Fault(.noURL, column: 1) }
        var record = URLListRecord(line: line, url: url, name: try text(members, "name"), etag: try text(members, "etag"),
                                   size: try text(members, "size"), lastModified: try text(members, "last_modified"))
        switch members["fields"] {
        case nil, .null?: break
        case let .object(fields)?: record.fields = fields.keys.sorted().map { ($0, fields[$0]!, 1) }
        default: throw URLListRecord.Fault(.wrongType("fields to be an object of names and values"), column: 1)
        }
        return record
    }

    /// A member's text: a string's own, a whole number's digits (for `size`).
    private static func text(_ members: [String: JSONValue], _ key: String) throws(URLListRecord.Fault) -> URLListRecord.Cell? {
        switch members[key] {
        case nil, .null?: return nil
        case let .string(text)?: return URLListRecord.Cell(text: text, column: 1)
        case let .integer(number)? where key == "size": return URLListRecord.Cell(text: String(number), column: 1)
        default: throw URLListRecord.Fault(.wrongType(key == "size" ? "size to be a whole number" : "\(key) to be a string"), column: 1)
        }
    }
}
