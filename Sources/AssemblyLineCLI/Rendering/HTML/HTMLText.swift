import AssemblyLine

/// Text made safe for HTML and SVG: element content and quoted attribute values alike.
enum HTMLText {
    /// `&`, `<`, `>`, `"` and `'` as entities; control characters (but tab and line feed) as U+FFFD, which no document may hold.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A path (or URL) that reads in a narrow column: each folder with its `/` a span of `span.dir`, the last name
    /// `span.name`, each laid out whole (the page's style), so that a long path wraps between folders, never inside a
    /// name that fits on a line; the text is the path as it is.
    static func path(_ text: String) -> String {
        let (directory, name) = PathText.directoryAndName(of: text)
        let folders = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .map { "<span>" + escaped(String($0)) + "/</span><wbr>" }.joined()
        return (folders.isEmpty ? "" : "<span class=\"dir\">" + folders + "</span>") + "<span class=\"name\">" + escaped(name) + "</span>"
    }

    /// A number for an SVG coordinate: at most one decimal, no trailing `.0`.
    static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
