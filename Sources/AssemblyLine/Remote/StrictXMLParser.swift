/// A strict parser of the small XML documents S3 answers with, for input that is not trusted.
///
/// It reads UTF-8 only, an optional `<?xml …?>` declaration, then one element tree of at most
/// ``maximumDepth`` levels and ``maximumElements`` elements. Document types, comments, CDATA and
/// processing instructions after the declaration are refused, so no entity can be defined or
/// expanded: the five predefined entities and numeric references (`&#38;`, `&#x26;`) are all there
/// is. Anything else is a ``Failure`` naming the byte offset.
package struct StrictXMLParser {
    /// Why a document was refused, and where.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package var offset: Int
        package var reason: String

        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// The deepest nesting accepted (S3's listings nest three levels).
    package static let maximumDepth = 16
    /// The most elements one document may hold (a page of 1,000 keys holds about 7,000).
    package static let maximumElements = 200_000

    private let bytes: [UInt8]
    private var index = 0
    private var elements = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The root element of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLElementNode {
        var parser = StrictXMLParser(bytes)
        return try parser.document()
    }

    private mutating func document() throws(Failure) -> XMLElementNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if starts(with: "<?xml") {
            guard let end = find("?>") else { throw failure("unterminated XML declaration") }
            index = end + 2
        }
        skipWhitespace()
        guard peek == UInt8(ascii: "<") else { throw failure("no root element") }
        let root = try element(depth: 1)
        skipWhitespace()
        guard index == bytes.count else { throw failure("content after the root element") }
        return root
    }

    private mutating func element(depth: Int) throws(Failure) -> XMLElementNode {
        guard depth <= Self.maximumDepth else { throw failure("elements nested deeper than \(Self.maximumDepth)") }
        elements += 1
        guard elements <= Self.maximumElements else { throw failure("more than \(Self.maximumElements) elements") }
        index += 1
        if let byte = peek, byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") {
            throw failure("a document type, comment, CDATA section or processing instruction")
        }
        let name = try self.name()
        let selfClosing = try attributes()
        var node = XMLElementNode(name: name)
        guard !selfClosing else { return node }
        var text: [UInt8] = []
        while true {
            guard let byte = peek else { throw failure("<\(name)> is not closed") }
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    index += 2
                    guard try self.name() == name else { throw failure("a closing tag that does not match <\(name)>") }
                    skipWhitespace()
                    guard peek == UInt8(ascii: ">") else { throw failure("a malformed closing tag") }
                    index += 1
                    break
                }
                node.children.append(try element(depth: depth + 1))
            } else if byte == UInt8(ascii: "&") {
                text += try reference()
            } else {
                text.append(byte)
                index += 1
            }
        }
        guard let decoded = String(validating: text, as: UTF8.self) else { throw failure("text of <\(name)> is not UTF-8") }
        node.text = decoded
        return node
    }

    /// Reads the attributes up to `>` or `/>`; true for `/>`.
    private mutating func attributes() throws(Failure) -> Bool {
        while true {
            let hadSpace = skipWhitespace()
            guard let byte = peek else { throw failure("unterminated tag") }
            if byte == UInt8(ascii: ">") {
                index += 1
                return false
            }
            if starts(with: "/>") {
                index += 2
                return true
            }
            guard hadSpace else { throw failure("an attribute without space before it") }
            _ = try name()
            skipWhitespace()
            guard peek == UInt8(ascii: "=") else { throw failure("an attribute without a value") }
            index += 1
            skipWhitespace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw failure("an unquoted attribute value")
            }
            index += 1
            while let byte = peek, byte != quote {
                guard byte != UInt8(ascii: "<") else { throw failure("`<` in an attribute value") }
                index += 1
            }
            guard peek == quote else { throw failure("an unterminated attribute value") }
            index += 1
        }
    }

    private mutating func name() throws(Failure) -> String {
        let start = index
        while let byte = peek, !Self.endsName(byte) {
            index += 1
        }
        guard index > start, let name = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw failure("a missing or malformed name")
        }
        return name
    }

    /// Decodes `&…;` at the index into its UTF-8 bytes.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = index
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw failure("an unterminated entity reference")
        }
        let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        let scalar: Unicode.Scalar?
        switch body {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if body.hasPrefix("#x") {
                scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if body.hasPrefix("#") {
                scalar = UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                scalar = nil
            }
        }
        guard let scalar, !body.contains("+"), !body.contains("-") else {
            index = start
            throw failure("an unknown or invalid entity reference &\(RemoteText.escaped(body, limit: 12));")
        }
        return Array(String(scalar).utf8)
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
             UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "<"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"):
            true
        default:
            false
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: String) -> Bool {
        bytes[index...].starts(with: text.utf8)
    }

    private func find(_ text: String) -> Int? {
        let pattern = Array(text.utf8)
        var position = index
        while position + pattern.count <= bytes.count {
            if bytes[position..<(position + pattern.count)].elementsEqual(pattern) { return position }
            position += 1
        }
        return nil
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
        }
        return index > start
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }
}
