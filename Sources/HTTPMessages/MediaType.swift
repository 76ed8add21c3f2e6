/// A parsed `Content-Type` value: type, subtype and parameters (RFC 9110 §8.3.1).
///
/// Type and subtype are lowercased; parameter names are matched case-insensitively and their
/// values are kept as sent (unquoted).
///
/// ```swift
/// let type = MediaType(parsing: "multipart/form-data; boundary=\"abc\"")
/// type?.essence              // "multipart/form-data"
/// type?.parameter("boundary") // "abc"
/// ```
package struct MediaType: Sendable, Hashable, CustomStringConvertible {
    package var type: String
    package var subtype: String
    private var header: HeaderParameters

    /// Parses a `Content-Type` value; nil when it has no `type/subtype` or a malformed parameter.
    package init?(parsing text: String) {
        guard let header = HeaderParameters(parsing: text) else { return nil }
        let parts = header.value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !parts.joined().contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        type = parts[0].lowercased()
        subtype = parts[1].lowercased()
        self.header = header
    }

    /// `type/subtype` without parameters, for comparisons such as `essence == "application/json"`.
    package var essence: String { "\(type)/\(subtype)" }

    /// The value of the parameter called `name`, or nil.
    package func parameter(_ name: String) -> String? {
        header.parameter(name)
    }

    package var description: String {
        ([essence] + header.parameters.map { "\($0.name)=\"\($0.value)\"" }).joined(separator: "; ")
    }
}
