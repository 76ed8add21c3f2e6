#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lexical operations on `/`-separated paths, byte-exact: no Unicode normalization, no file system access.
enum PathText {
    /// The names of a path, without empty and `.` parts, with `..` removing the name before it.
    ///
    /// A `..` at the start of an absolute path stays at the root; at the start of a relative path it is kept.
    static func components(_ path: String) -> [String] {
        let absolute = path.utf8.first == UInt8(ascii: "/")
        var names: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".":
                continue
            case "..":
                if let last = names.last, last != ".." {
                    names.removeLast()
                } else if !absolute {
                    names.append("..")
                }
            default:
                names.append(String(part))
            }
        }
        return names
    }

    /// The absolute path lexically equal to `path` (which must start with `/`): `/a/./b/../c/` gives `/a/c`.
    static func normalizedAbsolute(_ path: String) -> String {
        "/" + components(path).joined(separator: "/")
    }

    /// `directory` + `/` + `name`, without doubling the root's slash.
    static func appending(_ name: String, to directory: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The part of `path` below `base` (both normalized and absolute), or nil when `path` is not strictly under it.
    static func relative(_ path: String, to base: String) -> String? {
        if base == "/" {
            return path.utf8.count > 1 ? String(path.utf8.dropFirst())! : nil
        }
        let prefix = base + "/"
        guard path.utf8.count > prefix.utf8.count, path.utf8.starts(with: prefix.utf8) else { return nil }
        return String(path.utf8.dropFirst(prefix.utf8.count))!
    }

    /// Whether `lhs` sorts before `rhs` comparing their UTF-8 bytes, as `LC_ALL=C sort` does.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = memcmp(leftBase, rightBase, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    /// Whether two paths are the same bytes (Swift's `==` would also equate canonically equivalent Unicode).
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}
