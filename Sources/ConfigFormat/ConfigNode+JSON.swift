extension ConfigNode {
    /// The text of a scalar node, or nil for a sequence or mapping.
    package var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// A short name of the node's kind, for messages ("a mapping", "a list", "a value").
    package var kindDescription: String {
        switch content {
        case .scalar: return "a value"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// A plain scalar typed as YAML's core schema does: null, booleans, integers, numbers, else a string.
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
