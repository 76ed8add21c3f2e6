#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lexical operations on `/`-separated paths, byte-exact: no Unicode normalization, no file system access.
package enum PathText {
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
        isNormalizedAbsolute(path) ? path : "/" + components(path).joined(separator: "/")
    }

    /// True when `path` is absolute and has no empty, `.` or `..` name (nor a trailing slash): already
    /// what ``normalizedAbsolute(_:)`` makes of it. One pass over the bytes, for the planner's million paths.
    static func isNormalizedAbsolute(_ path: String) -> Bool {
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        return path.utf8.count == 1 || hasOnlyPlainNames(path.utf8.dropFirst())
    }

    /// True when `bytes` split on `/` into names none of which is empty, `.` or `..`.
    package static func hasOnlyPlainNames(_ bytes: some Sequence<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var length = 0, dots = 0
        for byte in bytes {
            if byte == slash {
                guard length > 0, length != dots || dots > 2 else { return false }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        return length > 0 && (length != dots || dots > 2)
    }

    /// The directory part of a path (`/a/b/c.yaml` gives `/a/b`, `c.yaml` gives `.`).
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path.utf8[..<slash])!
    }

    /// The last name of a path (`/a/b/c.jpg` gives `c.jpg`).
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path.utf8[path.utf8.index(after: slash)...])!
    }

    /// A file name cut at its last `.`: `a.b.jpg` gives `a.b` and `jpg`, `README` gives itself and nil.
    package static func stemAndExtension(of name: String) -> (stem: String, extension: String?) {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return (name, nil) }
        return (String(name.utf8[..<dot])!, String(name.utf8[name.utf8.index(after: dot)...])!)
    }

    /// A path cut after its last `/`: `/a/b/c.jpg` gives `/a/b/` and `c.jpg`; a path without `/` gives `""` and itself.
    package static func directoryAndName(of path: String) -> (directory: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        let nameStart = path.utf8.index(after: slash)
        return (String(path.utf8[..<nameStart])!, String(path.utf8[nameStart...])!)
    }

    /// Whether the last name of `path` is `name`, byte for byte (`a/b.jpg` ends in `b.jpg`, not in `.jpg`).
    static func endsInName(_ path: String, _ name: String) -> Bool {
        var path = path, name = name
        return path.withUTF8 { path in name.withUTF8 { endsInName(path, $0[...]) } }
    }

    /// `path` through its last `/` when its last name is also the last name of `relative`, byte for byte (`/in/a/b.jpg`
    /// and `a/b.jpg` give `/in/a/`), else nil: ``directoryAndName(of:)`` and ``endsInName(_:_:)`` in one pass over the
    /// bytes in place, one string made (a report reads a million paths from the ledger).
    static func directory(of path: String, namedLastAs relative: String) -> String? {
        var path = path, relative = relative
        return path.withUTF8 { path in
            guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            return relative.withUTF8 { endsInName($0, path[(slash + 1)...]) } ? String(decoding: path[...slash], as: UTF8.self) : nil
        }
    }

    private static func endsInName(_ path: UnsafeBufferPointer<UInt8>, _ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard !name.isEmpty, path.count >= name.count else { return false }
        let start = path.count - name.count
        return path[start...].elementsEqual(name) && (start == 0 || path[start - 1] == UInt8(ascii: "/"))
    }

    /// `path` with a trailing `/`, as a directory prefix names it (`/` stays `/`).
    static func asDirectory(_ path: String) -> String {
        path.utf8.last == UInt8(ascii: "/") ? path : path + "/"
    }

    /// An absolute, normalized path: a relative `path` is taken against the absolute `base`.
    package static func resolve(_ path: String, against base: String) -> String {
        normalizedAbsolute(path.utf8.first == UInt8(ascii: "/") ? path : appending(path, to: base))
    }

    /// `directory` + `/` + `name`, without doubling the root's slash.
    static func appending(_ name: String, to directory: String) -> String {
        guard directory != "/" else { return "/" + name }
        var path = ""
        path.reserveCapacity(directory.utf8.count + 1 + name.utf8.count)
        path += directory
        path += "/"
        path += name
        return path
    }

    /// The part of `path` below `base` (both normalized and absolute), or nil when `path` is not strictly under it.
    package static func relative(_ path: String, to base: String) -> String? {
        guard isStrictly(path, under: base) else { return nil }
        return String(path.utf8.dropFirst(base == "/" ? 1 : base.utf8.count + 1))!
    }

    /// Whether `path` lies strictly under `base` (both normalized and absolute): what ``relative(_:to:)`` answers, read in
    /// place without making a string (a night asks it of a million outputs).
    static func isStrictly(_ path: String, under base: String) -> Bool {
        var path = path, base = base
        return path.withUTF8 { path in
            base.withUTF8 { base in
                if base.count == 1, base[0] == UInt8(ascii: "/") { return path.count > 1 }
                guard path.count > base.count + 1, path[base.count] == UInt8(ascii: "/") else { return false }
                return base.isEmpty || memcmp(path.baseAddress!, base.baseAddress!, base.count) == 0
            }
        }
    }

    /// Compares the UTF-8 bytes of two paths, as `LC_ALL=C sort` does: negative, zero or positive.
    static func compare(_ lhs: String, _ rhs: String) -> Int {
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compare(left, right) }
        }
        if let fast, let order = fast { return order }
        return compare(Array(lhs.utf8), Array(rhs.utf8))
    }

    private static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    private static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in compare(left, right) } }
    }

    /// Compares the bytes of two paths each given in two parts (a head and a tail read as one), as ``compare(_:_:)`` does.
    static func compare(_ left: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>),
                        _ right: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)) -> Int {
        var (left, leftTail) = left, (right, rightTail) = right
        while true {
            if left.isEmpty { (left, leftTail) = (leftTail, UnsafeBufferPointer(start: nil, count: 0)) }
            if right.isEmpty { (right, rightTail) = (rightTail, UnsafeBufferPointer(start: nil, count: 0)) }
            guard !left.isEmpty, !right.isEmpty else { return left.isEmpty ? (right.isEmpty ? 0 : -1) : 1 }
            let common = min(left.count, right.count)
            let order = memcmp(left.baseAddress!, right.baseAddress!, common)
            if order != 0 { return Int(order) }
            left = UnsafeBufferPointer(rebasing: left[common...])
            right = UnsafeBufferPointer(rebasing: right[common...])
        }
    }

    /// Whether `lhs` sorts before `rhs` byte-wise.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Whether two paths are the same bytes (Swift's `==` would also equate canonically equivalent Unicode).
    package static func same(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Feeds a path's UTF-8 bytes to `hasher`: the hash that goes with ``same(_:_:)``.
    package static func hashBytes(of path: String, into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The longest file name Linux file systems take (`NAME_MAX`), in bytes.
    package static let nameLimit = 255
    /// The longest path a system call takes (`PATH_MAX` less its NUL), in bytes.
    package static let pathLimit = 4095

    /// Why a file could not be created at `path`, or nil: a name over ``nameLimit`` bytes, or a whole over ``pathLimit``.
    package static func lengthProblem(of path: String) -> String? {
        if path.utf8.count > pathLimit { return "it is \(path.utf8.count) bytes, more than the \(pathLimit) a path may have" }
        var length = 0
        for byte in path.utf8 {
            length = byte == UInt8(ascii: "/") ? 0 : length + 1
            if length > nameLimit { return "a name in it is over the \(nameLimit) bytes a file name may have" }
        }
        return nil
    }
}
