/// Why a text is not the strict JSON that ``JSONValue/init(parsing:)`` accepts, and at which byte.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset in the UTF-8 text where the problem was found.
    package var offset: Int
    /// What was expected there; never quotes a string value of the document.
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `JSON at byte N: message`, one line.
    package var description: String {
        "JSON at byte \(offset): \(message)"
    }
}
