/// A string's bytes appended to a report's bytes in one copy: the CSV and JSON of a million files append a dozen a file.
extension [UInt8] {
    /// Appends the UTF-8 of `text`, copied from its storage (through `String.UTF8View` it was a byte at a time).
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
