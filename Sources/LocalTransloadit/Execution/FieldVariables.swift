import ConfigFormat
import Foundation

/// Puts an Assembly's `fields` into its steps where they name `${fields.NAME}`, as production's Assembly Variables do.
///
/// A value that is exactly `${fields.NAME}` becomes the field's own JSON value (a number stays a
/// number, so `"width": "${fields.w}"` resizes to the field's width); inside other text the field's
/// text replaces it. A field the Assembly does not have, and every other variable (`${file.name}`,
/// `${assembly.id}`, …), is left as written. `robot` and `use` are never touched.
enum FieldVariables {
    /// `steps` with `fields` put in.
    static func interpolate(_ steps: JSONValue, fields: [String: JSONValue]) -> JSONValue {
        guard !fields.isEmpty, case let .object(byName) = steps else { return steps }
        return .object(byName.mapValues { step in
            guard case let .object(members) = step else { return step }
            return .object(Dictionary(uniqueKeysWithValues: members.map { key, value in
                (key, key == "robot" || key == "use" ? value : interpolated(value, fields))
            }))
        })
    }

    private static func interpolated(_ value: JSONValue, _ fields: [String: JSONValue]) -> JSONValue {
        switch value {
        case let .string(text):
            return interpolated(text, fields)
        case let .array(items):
            return .array(items.map { interpolated($0, fields) })
        case let .object(members):
            return .object(members.mapValues { interpolated($0, fields) })
        default:
            return value
        }
    }

    private static func interpolated(_ text: String, _ fields: [String: JSONValue]) -> JSONValue {
        guard text.contains("${fields.") else { return .string(text) }
        if text.hasPrefix("${fields."), text.hasSuffix("}"), let field = fields[String(text.dropFirst(9).dropLast())],
           !text.dropFirst(2).dropLast().contains("}") {
            return field
        }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${fields.") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[start.upperBound..<end])
            if let field = fields[name] {
                result += field.stringValue ?? field.serialized
            } else {
                result += rest[start.lowerBound...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        return .string(result + rest)
    }
}
