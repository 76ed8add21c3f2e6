import Foundation

/// The relative path a URL's outputs mirror: checked when a row names it, derived from the URL's path when not.
enum URLOutputName {
    /// The longest output name, in bytes: room for a layout's directories and suffixes within a path's bound.
    static let byteLimit = 1024

    /// Why `name` is no safe relative path, or nil: empty, absolute, an empty, `.` or `..` segment, a control or
    /// format character, a segment over 255 bytes or a whole over ``byteLimit``.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.first == UInt8(ascii: "/") { return "is absolute; expected a relative path" }
        if !PathText.hasOnlyPlainNames(name.utf8) { return "has an empty, . or .. segment" }
        if name.unicodeScalars.contains(where: RemoteText.isUnsafe) { return "holds a control or format character" }
        if name.utf8.count > byteLimit { return "is over \(byteLimit) bytes" }
        return PathText.lengthProblem(of: name).map { "is too long: \($0)" }
    }

    /// The URL's path segments, percent-decoded and each made a safe file name (``SafeFileName``), the last ones
    /// that fit ``byteLimit``; the host's name for a URL without a path.
    static func derived(from url: String) -> String {
        let authority = URLText.authority(of: url)
        let path = url[authority.endIndex...].prefix { $0 != "?" && $0 != "#" }
        var names: [String] = []
        var bytes = 0
        for segment in path.split(separator: "/").reversed() {
            let name = SafeFileName.from(segment.removingPercentEncoding ?? String(segment))
            let added = name.utf8.count + (names.isEmpty ? 0 : 1)
            guard names.isEmpty || bytes + added <= byteLimit else { break }
            names.append(name)
            bytes += added
        }
        guard !names.isEmpty else { return SafeFileName.from(TransportEndpoint(url: url).host) }
        return names.reversed().joined(separator: "/")
    }
}
