/// Small checks on URL text, without a URL parser: the scheme, the host, and whether it is loopback.
package enum URLText {
    /// The host of `scheme://host[:port][/path]`, lowercased, or nil when the text has another scheme.
    package static func host(of url: String, scheme: String) -> String? {
        guard url.lowercased().hasPrefix(scheme + "://") else { return nil }
        let authority = authority(of: url)
        guard !authority.contains("@") else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[...close]).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    /// What lies between `scheme://` and the path, query or fragment (`user:pass@host:port`); empty without a scheme.
    package static func authority(of url: String) -> Substring {
        guard let separator = url.firstOccurrence(of: "://") else { return url[url.endIndex...] }
        return url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// True when `url` holds a byte that no URL sends as is: a space, a control character, DEL or a non-ASCII byte
    /// (percent-encoded, each is fine).
    package static func hasUnsafeByte(_ url: String) -> Bool {
        url.utf8.contains { $0 <= 0x20 || $0 >= 0x7F }
    }

    /// True when the authority of `url` carries `user[:password]@`, which a client would send as Basic auth.
    package static func carriesCredentials(_ url: String) -> Bool {
        authority(of: url).contains("@")
    }

    /// `url` without the `user:pass@` of its authority: what the ledger, a report or a message may hold of it.
    package static func withoutCredentials(_ url: String) -> String {
        let authority = authority(of: url)
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<authority.startIndex]) + String(url[url.index(after: at)...])
    }

    /// True for `localhost`, `127.x.x.x` and `[::1]`.
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension Collection where Element: Equatable {
    /// The range of the first run of elements equal to `pattern`'s: a plain search for a short pattern in a short text,
    /// as `firstRange(of:)` finds it without building a searcher.
    package func firstOccurrence(of pattern: some Collection<Element>) -> Range<Index>? {
        guard let head = pattern.first else { return nil }
        var start = startIndex
        while let candidate = self[start...].firstIndex(of: head) {
            if self[candidate...].starts(with: pattern) {
                return candidate..<index(candidate, offsetBy: pattern.count)
            }
            start = index(after: candidate)
        }
        return nil
    }
}
