package import ConfigFormat

/// One member that differs between two Templates (the file's and the account's), by its path in the JSON.
///
/// Values compare as their canonical JSON (`320` and `320.0` are equal); objects are compared member by member and
/// arrays element by element, so a change deep in one Step names that option alone.
package struct TemplateDifference: Sendable, Hashable, CustomStringConvertible {
    /// The member's path: `steps.resize.width`, `steps.resize.use[1]`, `steps["a.b"]`.
    package var path: String
    /// The value on the left (the file); nil when only the right has it.
    package var left: JSONValue?
    /// The value on the right (the account); nil when only the left has it.
    package var right: JSONValue?

    /// `~ path: left → right`, `- path: left` (only the left has it) or `+ path: right`, values as compact JSON.
    package var description: String {
        switch (left, right) {
        case let (left?, right?): "~ \(path): \(left.serialized) → \(right.serialized)"
        case let (left?, nil): "- \(path): \(left.serialized)"
        case let (nil, right?): "+ \(path): \(right.serialized)"
        case (nil, nil): "  \(path)"
        }
    }

    /// Every difference between `left` and `right`, in path order.
    package static func between(_ left: JSONValue, _ right: JSONValue, at path: String = "") -> [TemplateDifference] {
        switch (left, right) {
        case let (.object(lower), .object(upper)):
            return Set(lower.keys).union(upper.keys).sorted().flatMap { key -> [TemplateDifference] in
                let member = path.isEmpty ? Self.member(key) : path + (Self.isPlain(key) ? "." + key : "[\(JSONValue.string(key).serialized)]")
                switch (lower[key], upper[key]) {
                case let (old?, new?): return between(old, new, at: member)
                case let (old, new): return [TemplateDifference(path: member, left: old, right: new)]
                }
            }
        case let (.array(lower), .array(upper)):
            return (0..<max(lower.count, upper.count)).flatMap { index -> [TemplateDifference] in
                let element = "\(path)[\(index)]"
                guard index < lower.count, index < upper.count else {
                    return [TemplateDifference(path: element, left: index < lower.count ? lower[index] : nil,
                                               right: index < upper.count ? upper[index] : nil)]
                }
                return between(lower[index], upper[index], at: element)
            }
        default:
            return left.serialized == right.serialized ? [] : [TemplateDifference(path: path.isEmpty ? "(the whole Template)" : path, left: left, right: right)]
        }
    }

    /// A top-level member's path: its name when plain, else quoted.
    private static func member(_ key: String) -> String {
        isPlain(key) ? key : "[\(JSONValue.string(key).serialized)]"
    }

    /// Whether `key` reads unambiguously after a dot: letters, digits, `_`, `-` and `:` (`:original`).
    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-:".unicodeScalars.contains($0)) }
    }
}
