/// A JSON value, serialized canonically: object keys sorted, integers exact, no insignificant space.
///
/// Assembly Instructions, Template fields and signed params are built from it, so that the same
/// recipe always gives the same bytes.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical serialization: sorted keys, `\uXXXX` escapes for control characters, `/` unescaped.
    package var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends ``serialized`` to `output`.
    package func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? Self.format(value) : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Appends the canonical text of the string `value` to `output`: quoted, escaped as ``serialized`` escapes.
    package static func writeString(_ value: String, to output: inout String) {
        // Most strings need no escape: one append instead of one a character. A native string's bytes are scanned
        // in place (through its UTF-8 view, a byte at a time, the scan was a quarter of a JSON report's writing).
        guard value.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isEscaped) }) ?? value.utf8.contains(where: isEscaped) else {
            output += "\""
            output += value
            output += "\""
            return
        }
        var text: [UInt8] = []
        var value = value
        value.withUTF8 { writeString(utf8: $0, to: &text) }
        output += String(decoding: text, as: UTF8.self)
    }

    /// The JSON string of the text whose UTF-8 bytes are `value`, quoted and escaped as ``writeString(_:to:)`` writes it
    /// (a quote, a backslash and a control character escaped, the rest as it is), appended to `output`.
    package static func writeString(utf8 value: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var plain = 0
        for (position, byte) in value.enumerated() where isEscaped(byte) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: value[plain..<position]))
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
            default: output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            }
            plain = position + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: value[plain...]))
        output.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of a string's UTF-8 is escaped in JSON: a quote, a backslash, a control character.
    private static func isEscaped(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension JSONValue {
    /// The members of an object, or nil for any other value.
    package var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string, or nil for any other value.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
