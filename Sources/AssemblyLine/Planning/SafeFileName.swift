/// Reduces a name the service gave (a result's, its extension) to one file name that is safe to create.
///
/// A result may be named `a.jpg/x` (a new folder), `..`, or hold a NUL that would cut the name
/// short, control characters, or thousands of bytes. What is kept: one path component, no `/`
/// and no control or format character (each becomes `_`), never `.` or `..`, at most
/// ``byteLimit`` bytes cut on a whole character, never empty.
package enum SafeFileName {
    /// The longest name kept, in UTF-8 bytes: under `NAME_MAX` (255), with room for a temp file's suffix.
    package static let byteLimit = 200

    package static func from(_ text: String) -> String {
        var name = ""
        var bytes = 0
        for character in text {
            let safe: Character = character == "/" || character.unicodeScalars.contains(where: RemoteText.isUnsafe) ? "_" : character
            guard bytes + safe.utf8.count <= byteLimit else { break }
            name.append(safe)
            bytes += safe.utf8.count
        }
        return name.isEmpty || name == "." || name == ".." ? "_" : name
    }
}
