/// The header fields of a request or response: ordered, repeatable, and looked up case-insensitively.
///
/// The one header model of the client, the transport and the servers.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]            // "application/json"
/// headers.add("Set-Cookie", "a=1")   // repeated fields are kept in order
/// ```
package struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    CustomStringConvertible {
    package private(set) var fields: [HTTPHeader]

    package init(_ fields: [HTTPHeader] = []) {
        self.fields = fields
    }

    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    package init(arrayLiteral elements: HTTPHeader...) {
        fields = elements
    }

    /// The value of the first field called `name` (any case), or nil.
    package subscript(name: String) -> String? {
        value(for: name)
    }

    /// The value of the first field called `name` (any case), or nil.
    package func value(for name: String) -> String? {
        fields.first { $0.isNamed(name) }?.value
    }

    /// The values of every field called `name`, in order.
    package func values(for name: String) -> [String] {
        fields.filter { $0.isNamed(name) }.map(\.value)
    }

    /// True when a field called `name` is present.
    package func contains(name: String) -> Bool {
        fields.contains { $0.isNamed(name) }
    }

    package var isEmpty: Bool { fields.isEmpty }

    /// Appends a field, keeping any others of the same name.
    package mutating func add(_ name: String, _ value: String) {
        append(HTTPHeader(name: name, value: value))
    }

    /// Appends `field`, keeping any others of the same name.
    package mutating func append(_ field: HTTPHeader) {
        fields.append(field)
    }

    /// Replaces every field called `name` with one field.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field called `name`.
    package mutating func remove(_ name: String) {
        fields.removeAll { $0.isNamed(name) }
    }

    package func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        fields.makeIterator()
    }

    /// These fields, then those of `other`.
    package static func + (lhs: HTTPHeaders, rhs: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(lhs.fields + rhs.fields)
    }

    /// `Name: value` lines joined by `, `.
    package var description: String {
        fields.map(\.description).joined(separator: ", ")
    }
}
