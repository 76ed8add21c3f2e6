/// Splits a header value of the form `value; name=token; name="quoted"` into its leading value and parameters.
///
/// This is the grammar that `Content-Type` (RFC 9110 §8.3.1) and `Content-Disposition`
/// (RFC 6266 §4.1) share. Parameter names are lowercased, quoted strings are unquoted with their
/// backslash escapes removed, and whitespace around `;` and `=` is allowed.
struct HeaderParameters: Sendable, Hashable {
    /// The part before the first `;`, trimmed (for example `multipart/form-data` or `form-data`).
    var value: String
    /// The parameters in order, with lowercased names.
    var parameters: [(name: String, value: String)]

    /// The first parameter called `name` (compared case-insensitively).
    func parameter(_ name: String) -> String? {
        let wanted = name.lowercased()
        return parameters.first { $0.name == wanted }?.value
    }

    static func == (lhs: HeaderParameters, rhs: HeaderParameters) -> Bool {
        lhs.value == rhs.value && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.value)
        }
    }

    /// Parses `text`; nil when a parameter has no `=`, an empty name, or an unterminated quoted string.
    init?(parsing text: String) {
        var scanner = Substring(text)
        let head = scanner.prefix { $0 != ";" }
        value = String(head).trimmingWhitespace()
        scanner = scanner[head.endIndex...]
        parameters = []
        while let semicolon = scanner.first, semicolon == ";" {
            scanner = scanner.dropFirst().drop { $0 == " " || $0 == "\t" }
            if scanner.isEmpty || scanner.first == ";" { continue }
            guard let equals = scanner.firstIndex(of: "=") else { return nil }
            let name = String(scanner[..<equals]).trimmingWhitespace().lowercased()
            guard !name.isEmpty, !name.contains(";") else { return nil }
            scanner = scanner[scanner.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            if scanner.first == "\"" {
                guard let (unquoted, rest) = Self.quotedString(scanner) else { return nil }
                parameters.append((name, unquoted))
                scanner = rest.drop { $0 == " " || $0 == "\t" }
                guard scanner.isEmpty || scanner.first == ";" else { return nil }
            } else {
                let token = scanner.prefix { $0 != ";" }
                parameters.append((name, String(token).trimmingWhitespace()))
                scanner = scanner[token.endIndex...]
            }
        }
    }

    /// Reads a quoted string that starts at the first character of `text`; returns it unquoted and the rest.
    private static func quotedString(_ text: Substring) -> (String, Substring)? {
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                return (result, text[text.index(after: index)...])
            }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
