extension ConfigNode {
    /// The node as JSON, typing plain scalars as YAML's core schema does (null, booleans, numbers).
    ///
    /// Quoted scalars stay strings, so `"123"` is a string and `123` an integer. Mapping keys are
    /// taken as text.
    public var jsonValue: JSONValue {
        switch content {
        case .scalar(let text, let quoted):
            return quoted ? .string(text) : Self.typedScalar(text)
        case .sequence(let items):
            return .array(items.map(\.jsonValue))
        case .mapping(let entries):
            var members: [String: JSONValue] = [:]
            for entry in entries {
                members[entry.key.scalarText ?? entry.key.jsonValue.serialized] = entry.value.jsonValue
            }
            return .object(members)
        }
    }

    /// The text of a scalar node, or nil for a sequence or mapping.
    public var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// A short name of the node's kind, for messages ("a mapping", "a list", "a value").
    public var kindDescription: String {
        switch content {
        case .scalar: return "a value"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    static func typedScalar(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default:
            if let integer = Int64(text) { return .integer(integer) }
            if text.contains(where: { $0.isNumber }), let number = Double(text), number.isFinite {
                return .number(number)
            }
            return .string(text)
        }
    }
}
