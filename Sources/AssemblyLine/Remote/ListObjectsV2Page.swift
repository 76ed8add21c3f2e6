/// Decodes and checks one ListObjectsV2 answer (`<ListBucketResult>`) as untrusted input.
///
/// A page that cannot be a true answer to the request fails as a whole (``S3ListingError``); one bad
/// entry is left out with its reason (``S3SkippedKey``), and the rest of the page stands. S3 lists
/// keys in ascending order of their UTF-8 bytes, across pages too: a key that does not sort after
/// the one before it (a repeat, a page served again) fails the page, which sees every repeat while
/// the listing's memory stays flat.
package struct ListObjectsV2Page {
    /// The page's number in the listing, from 1.
    package var number: Int
    /// The prefix that was listed: every key must start with its bytes.
    package var prefix: String
    /// The `max-keys` that was asked for.
    package var maxKeys: Int
    /// The last key of the page before, nil for the first: every key must sort after it.
    package var after: String?

    package init(number: Int, prefix: String, maxKeys: Int, after: String? = nil) {
        self.number = number
        self.prefix = prefix
        self.maxKeys = maxKeys
        self.after = after
    }

    /// S3's longest key, in UTF-8 bytes.
    package static let maximumKeyLength = 1024

    /// The checked page of `body`.
    package func decode(_ body: [UInt8]) throws(S3ListingError) -> S3ListPage {
        let root: XMLElementNode
        do {
            root = try StrictXMLParser.parse(body)
        } catch {
            throw .malformedPage(page: number, reason: error.description)
        }
        guard root.name == "ListBucketResult" else {
            throw .malformedPage(page: number, reason: "the root element is <\(RemoteText.escaped(root.name, limit: 40))>")
        }
        let entries = root.children("Contents")
        guard entries.count <= maxKeys else { throw .tooManyKeys(page: number, count: entries.count, maxKeys: maxKeys) }
        if let keyCount = root.child("KeyCount") {
            guard let count = Int(keyCount.text), count == entries.count + root.children("CommonPrefixes").count else {
                throw .malformedPage(page: number, reason: "KeyCount does not count the page's keys")
            }
        }
        let truncated: Bool
        switch root.child("IsTruncated")?.text {
        case "true"?: truncated = true
        case "false"?: truncated = false
        default: throw .malformedPage(page: number, reason: "IsTruncated is not true or false")
        }
        var token: String?
        if truncated {
            guard let next = root.child("NextContinuationToken")?.text, !next.isEmpty else {
                throw .missingContinuationToken(page: number)
            }
            token = next
        }
        var objects: [S3Object] = []
        var skipped: [S3SkippedKey] = []
        objects.reserveCapacity(entries.count)
        var previous = after
        for entry in entries {
            if let key = entry.child("Key")?.text {
                if let previous, !previous.utf8.lexicographicallyPrecedes(key.utf8) {
                    throw .keysOutOfOrder(page: number)
                }
                previous = key
            }
            switch read(entry) {
            case let .object(object): objects.append(object)
            case let .skipped(skip): skipped.append(skip)
            }
        }
        return S3ListPage(number: number, objects: objects, skipped: skipped, nextContinuationToken: token, lastKey: previous)
    }

    /// One `<Contents>` entry, read.
    private enum Entry {
        case object(S3Object)
        case skipped(S3SkippedKey)
    }

    private func read(_ entry: XMLElementNode) -> Entry {
        guard let key = entry.child("Key")?.text else { return .skipped(S3SkippedKey(key: "", reason: .missingField("Key"))) }
        if let reason = Self.refusal(of: key) ?? (key.utf8.starts(with: prefix.utf8) ? nil : .outsidePrefix) {
            return .skipped(S3SkippedKey(key: key, reason: reason))
        }
        let sizeText = entry.child("Size")?.text ?? ""
        guard let size = Self.size(sizeText) else { return .skipped(S3SkippedKey(key: key, reason: .badSize(sizeText))) }
        guard let etag = entry.child("ETag")?.text, !etag.isEmpty else {
            return .skipped(S3SkippedKey(key: key, reason: .missingField("ETag")))
        }
        let modified = entry.child("LastModified").flatMap { UTCDateTime(iso8601Text: $0.text) }
        return .object(S3Object(key: key, size: size, etag: RemoteText.escaped(etag, limit: RemoteText.nameLimit), lastModified: modified))
    }

    /// Why `key` cannot name an input, nil when it can.
    package static func refusal(of key: String) -> S3SkippedKey.Reason? {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else { return .badLength }
        // Printable ASCII, most keys, has no control character; only other keys are read scalar by scalar.
        if !key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
           key.unicodeScalars.contains(where: { lineBreaking.contains($0.properties.generalCategory) }) {
            return .controlCharacter
        }
        return hasDotSegment(key) ? .dotSegment : nil
    }

    /// The categories of a control character and of a line or paragraph separator.
    private static let lineBreaking: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]

    /// True when a `/`-separated segment of `key` is `.` or `..`.
    private static func hasDotSegment(_ key: String) -> Bool {
        var dots = 0, length = 0
        for byte in key.utf8 {
            if byte == UInt8(ascii: "/") {
                if length > 0, length == dots, dots <= 2 { return true }
                dots = 0
                length = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return length > 0 && length == dots && dots <= 2
    }

    /// A size of decimal digits only, 0 to ``S3Object/maximumSize``; nil for anything else.
    private static func size(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let size = Int64(text), size <= S3Object.maximumSize
        else { return nil }
        return size
    }
}
