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
        output += "\""
        // Most strings need no escape: one append instead of one a character. A native string's bytes are scanned
        // in place (through its UTF-8 view, a byte at a time, the scan was a quarter of a JSON report's writing).
        let escaped: (UInt8) -> Bool = { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        guard value.utf8.withContiguousStorageIfAvailable({ $0.contains(where: escaped) }) ?? value.utf8.contains(where: escaped) else {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
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
