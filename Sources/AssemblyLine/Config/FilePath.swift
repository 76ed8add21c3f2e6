/// Lexical path arithmetic on `/`-separated POSIX paths; touches no file system.
public enum FilePath {
    /// The directory part of a path (`/a/b/c.yaml` → `/a/b`, `c.yaml` → `.`).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// An absolute, normalized path: a relative one is taken against `base`; `.` and `..` are folded.
    public static func resolve(_ path: String, against base: String) -> String {
        normalize(path.hasPrefix("/") ? path : base + "/" + path)
    }

    /// The path with empty, `.` and `..` components folded; `..` never climbs above `/`.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `base` when it lies below it, else nil.
    public static func relative(_ path: String, to base: String) -> String? {
        if base == "/" { return path.hasPrefix("/") ? String(path.dropFirst()) : nil }
        guard path.hasPrefix(base + "/") else { return nil }
        return String(path.dropFirst(base.count + 1))
    }
}
