import ConfigFormat

/// The columns a CSV list's header names, and where each value of a record is: the `url`, `name`, identity and `fields.NAME` cells.
struct URLListColumns {
    private var url: Int
    private var name: Int?
    private var etag: Int?
    private var size: Int?
    private var lastModified: Int?
    private var fields: [(name: String, index: Int)] = []
    /// How many cells each record has.
    let count: Int

    /// The columns of a header row; its names are matched without regard to case, but a field's own name keeps its case.
    ///
    /// - Throws: the problem and the column it is at: a name repeated or unknown, or no `url`.
    init(header cells: [(bytes: [UInt8], column: Int)]) throws(URLListRecord.Fault) {
        var url: Int?
        var seen: Set<String> = []
        count = cells.count
        for (index, cell) in cells.enumerated() {
            guard let text = String(validating: cell.bytes, as: UTF8.self) else { throw URLListRecord.Fault(.notUTF8, column: cell.column) }
            let key = text.lowercased()
            guard seen.insert(key.hasPrefix("fields.") ? "fields." + text.dropFirst(7) : key).inserted else {
                throw URLListRecord.Fault(.repeatedColumn(text), column: cell.column)
            }
            switch key {
            case "url": url = index
            case "name": name = index
            case "etag": etag = index
            case "size": size = index
            case "last_modified": lastModified = index
            case _ where key.hasPrefix("fields.") && key.count > 7: fields.append((String(text.dropFirst(7)), index))
            default: throw URLListRecord.Fault(.unknownKey(text), column: cell.column)
            }
        }
        guard let url else { throw URLListRecord.Fault(.noURLColumn, column: 1) }
        self.url = url
    }

    /// The record of a row's cells; an empty optional cell is no value.
    func record(_ cells: [(bytes: [UInt8], column: Int)], line: Int) throws(URLListRecord.Fault) -> URLListRecord {
        guard cells.count == count else { throw URLListRecord.Fault(.cellCount(found: cells.count, expected: count), column: 1) }
        var texts: [URLListRecord.Cell] = []
        for cell in cells {
            guard let text = String(validating: cell.bytes, as: UTF8.self) else { throw URLListRecord.Fault(.notUTF8, column: cell.column) }
            texts.append(URLListRecord.Cell(text: text, column: cell.column))
        }
        guard !texts[url].text.isEmpty else { throw URLListRecord.Fault(.noURL, column: texts[url].column) }
        func optional(_ index: Int?) -> URLListRecord.Cell? {
            index.map { texts[$0] }.flatMap { $0.text.isEmpty ? nil : $0 }
        }
        var record = URLListRecord(line: line, url: texts[url], name: optional(name), etag: optional(etag), size: optional(size),
                                   lastModified: optional(lastModified))
        record.fields = fields.compactMap { field in
            optional(field.index).map { (field.name, JSONValue.string($0.text), $0.column) }
        }
        return record
    }
}
