/// Replaces `${NAME}` in configuration values with the environment's value; `$${` stands for a literal `${`.
package struct EnvironmentExpander: Sendable {
    /// Why a value could not be expanded.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unset(String)
        case malformed

        package var description: String {
            switch self {
            case .unset(let name): return "environment variable \(name) is not set"
            case .malformed: return "expected ${NAME} with NAME made of letters, digits and _ (write $${ for a literal ${)"
            }
        }
    }

    package var environment: [String: String]

    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// The text with every `${NAME}` replaced.
    package func expand(_ text: String) throws(Failure) -> String {
        guard text.contains("$") else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {
                output += "${"
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{") {
                guard let close = after.firstIndex(of: "}") else { throw .malformed }
                let name = String(after[after.index(after: after.startIndex)..<close])
                guard Self.isValidName(name) else { throw .malformed }
                guard let value = environment[name] else { throw .unset(name) }
                output += value
                rest = after[after.index(after: close)...]
            } else {
                output += "$"
                rest = after
            }
        }
        return output + rest
    }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
