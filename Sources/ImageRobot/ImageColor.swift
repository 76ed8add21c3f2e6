/// An RGBA colour, as `/image/resize` takes it for `background`.
package struct ImageColor: Sendable, Hashable, CustomStringConvertible {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8
    package var alpha: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `#FFFFFF`, the API's default background.
    package static let white = ImageColor(red: 255, green: 255, blue: 255)
    /// Fully transparent, what the API calls `none`.
    package static let transparent = ImageColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#rrggbb`, `#rrggbbaa` (the `#` may be left out, hex digits in either case), or `none`/`transparent`.
    package init(parsing text: String) throws(ImagingError) {
        let lowered = text.lowercased()
        if lowered == "none" || lowered == "transparent" {
            self = .transparent
            return
        }
        let digits = lowered.hasPrefix("#") ? lowered.dropFirst() : Substring(lowered)
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16),
              digits.allSatisfy(\.isHexDigit) else {
            throw .invalidColor(text)
        }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(rgba >> 24 & 0xFF), green: UInt8(rgba >> 16 & 0xFF),
            blue: UInt8(rgba >> 8 & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// True when the colour is not fully opaque.
    package var isTranslucent: Bool { alpha < 255 }

    /// `#rrggbbaa`.
    package var description: String {
        "#" + [red, green, blue, alpha].map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
