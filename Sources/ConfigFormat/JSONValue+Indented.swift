extension JSONValue {
    /// Readable JSON for files people review, an object of `members` in the order given (a file whose first keys are
    /// fixed): two-space indentation, one member or element a line, the keys of nested objects sorted, a final newline;
    /// scalars as ``serialized`` writes them.
    package static func indentedObject(_ members: [(key: String, value: JSONValue)]) -> String {
        var output = ""
        writeMembers(members, to: &output, depth: 0)
        return output + "\n"
    }

    private func writeIndented(to output: inout String, depth: Int) {
        switch self {
        case .array(let values) where !values.isEmpty:
            output += "["
            for (index, value) in values.enumerated() {
                output += (index == 0 ? "\n" : ",\n") + Self.indent(depth + 1)
                value.writeIndented(to: &output, depth: depth + 1)
            }
            output += "\n" + Self.indent(depth) + "]"
        case .object(let members) where !members.isEmpty:
            Self.writeMembers(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }, to: &output, depth: depth)
        default:
            write(to: &output)
        }
    }

    private static func writeMembers(_ members: [(key: String, value: JSONValue)], to output: inout String, depth: Int) {
        guard !members.isEmpty else { return output += "{}" }
        output += "{"
        for (index, member) in members.enumerated() {
            output += (index == 0 ? "\n" : ",\n") + indent(depth + 1)
            writeString(member.key, to: &output)
            output += ": "
            member.value.writeIndented(to: &output, depth: depth + 1)
        }
        output += "\n" + indent(depth) + "}"
    }

    private static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: depth)
    }
}
