/// One HTTP header field as sent or received; names compare case-insensitively through the lookup helpers.
package struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Name: value`, as on the wire.
    package var description: String { "\(name): \(value)" }

    /// True when the name or value holds a CR, LF or NUL, which would split or end the header on the wire.
    package var isMalformed: Bool {
        name.isEmpty || (name + value).utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
            || name.utf8.contains { $0 == 0x3A || $0 == 0x20 }
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the first field named `name` (case-insensitive), or nil.
    package func value(for name: String) -> String? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }?.value
    }

    /// The values of every field named `name` (case-insensitive), in order.
    package func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// True when a field named `name` (case-insensitive) is present.
    package func contains(name: String) -> Bool {
        value(for: name) != nil
    }
}
