/// Makes a text a peer sent safe to print and store: control characters escaped, the length bounded.
///
/// A service's message, a result's name or a signer's reason reaches a terminal, a log and the
/// ledger. Raw, a newline there forges a line ("shard 0: downloaded"), an ESC sequence rewrites the
/// screen, and a 20 KB message buries the rest. Every text from a peer goes through ``escaped(_:limit:)``
/// where it is read, once, so that what follows never needs to ask.
package enum RemoteText {
    /// How many characters of a message or reason are kept.
    package static let messageLimit = 500
    /// How many characters of a name (a result's, a step's, a code) are kept.
    package static let nameLimit = 255

    /// `text` with control and format characters (newlines, ESC, DEL, C1, bidirectional overrides)
    /// written as `\n`, `\r`, `\t` or `\u{…}`, cut to `limit` characters with `…` after a cut.
    package static func escaped(_ text: String, limit: Int) -> String {
        // Most texts are short printable ASCII (a listing's keys and ETags, a million at a time): kept as they are.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var result = ""
        var kept = 0
        for character in text {
            guard kept < limit else { return result + "…" }
            kept += 1
            guard character.unicodeScalars.contains(where: isUnsafe) else {
                result.append(character)
                continue
            }
            for scalar in character.unicodeScalars {
                result += isUnsafe(scalar) ? escape(scalar) : String(scalar)
            }
        }
        return result
    }

    /// Whether a scalar changes what a terminal or a line-based log shows beyond itself.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
