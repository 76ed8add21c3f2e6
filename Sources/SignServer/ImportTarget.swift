import AssemblyLine

/// Where an import step's `path` or `url` element points, compared with a rule's prefixes without resolving anything.
///
/// Nothing is normalised into a match: an element that a reader could take for another place (a `..`
/// segment, a leading `/`, `\`, `@` in a URL) is refused, and what is left is compared byte for byte. A
/// prefix that ends in `/` takes what starts with it; one that does not takes itself and what continues
/// it after a `/`, so `photos/2026` never takes `photos/2026-private/`, nor `https://cdn.example.com/media`
/// `https://cdn.example.com/media.evil.com/x`.
enum ImportTarget {
    /// Refuses a bucket `path` that is not a plain relative key (a trailing `/`, a folder, is fine) or lies under none of `prefixes`.
    static func checkPath(_ path: String, element: String, prefixes: [String]) throws(ImportRefusal) {
        do throws(ImportRefusal.Fault) {
            try checkPlainKey(path)
        } catch {
            throw .unsafe(element: element, error)
        }
        guard prefixes.contains(where: { isUnder(path, $0) }) else { throw .outsidePrefixes(element: element) }
    }

    /// Refuses an `/http/import` URL that parsers could read differently or that lies under none of `prefixes`.
    static func checkURL(_ url: String, element: String, prefixes: [String]) throws(ImportRefusal) {
        let target: ImportURL
        do throws(ImportRefusal.Fault) {
            target = try ImportURL(url)
        } catch {
            throw .unsafe(element: element, error)
        }
        let under = prefixes.contains { text in
            guard let prefix = try? ImportURL(text) else { return false }
            return prefix.origin == target.origin && isUnder(target.path, prefix.path)
        }
        guard under else { throw .outsidePrefixes(element: element) }
    }

    /// A relative key of plain names: no leading `/`, no empty, `.` or `..` segment, no `\` nor control character.
    static func checkPlainKey(_ key: String) throws(ImportRefusal.Fault) {
        guard !key.isEmpty else { throw .empty }
        if key.unicodeScalars.contains(where: RemoteText.isUnsafe) { throw .unsafeCharacter }
        if key.hasPrefix("/") { throw .absolute }
        if key.contains("\\") { throw .ambiguous }
        let folder = key.hasSuffix("/") ? key.utf8.dropLast() : key.utf8[...]
        guard PathText.hasOnlyPlainNames(folder) else { throw .dotSegment }
    }

    /// Whether `path` lies under `prefix`: after a prefix ending in `/`, or at a `/` after one that does not.
    private static func isUnder(_ path: String, _ prefix: String) -> Bool {
        guard path.utf8.starts(with: prefix.utf8) else { return false }
        guard prefix.utf8.last != UInt8(ascii: "/") else { return true }
        let rest = path.utf8.dropFirst(prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}
