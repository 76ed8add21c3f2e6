/// One HTTP header field as sent or received: a name (compared without regard to case) and a value.
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

    /// True when this field is called `name`: header names are ASCII and compared without regard to case (RFC 9110 §5.1).
    package func isNamed(_ name: String) -> Bool {
        self.name.utf8.count == name.utf8.count && zip(self.name.utf8, name.utf8).allSatisfy { Self.lowered($0) == Self.lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
