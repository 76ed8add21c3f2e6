import ConfigFormat

extension NodeBuilder {
    /// The mapping that starts with `start`: scalar keys only, no key twice, merge keys resolved.
    mutating func mapping(startingWith start: ParserEvent) throws(YAMLError) -> Built {
        try enterCollection(start)
        defer { leaveCollection() }
        var entries: [ConfigNode.Entry] = []
        var size = 1
        while true {
            let event = try events.next()
            if case .mappingEnd = event.kind { break }
            let key = try node(from: event)
            guard case .scalar = key.node.content else {
                throw error(at: key.node.mark, "a mapping key must be a scalar, not a \(Self.kindName(key.node.content))")
            }
            let value = try node(from: events.next())
            entries.append(ConfigNode.Entry(key: key.node, value: value.node))
            size += key.size + value.size
        }
        return Built(node: ConfigNode(.mapping(try resolved(entries)), at: start.mark), size: size)
    }

    /// The entries with duplicate keys refused and each plain `<<` entry replaced by the
    /// entries it merges in: explicit keys win, then earlier merged mappings win.
    private func resolved(_ entries: [ConfigNode.Entry]) throws(YAMLError) -> [ConfigNode.Entry] {
        var firstMarks: [String: SourceMark] = [:]
        var hasMerge = false
        for entry in entries {
            let key = Self.keyText(entry.key)
            if let first = firstMarks[key] {
                throw error(at: entry.key.mark, "duplicate key '\(key)' (first at \(first))")
            }
            firstMarks[key] = entry.key.mark
            hasMerge = hasMerge || Self.isMergeKey(entry.key)
        }
        guard hasMerge else { return entries }
        var present = Set(firstMarks.keys)
        var result: [ConfigNode.Entry] = []
        for entry in entries {
            guard Self.isMergeKey(entry.key) else {
                result.append(entry)
                continue
            }
            for merged in try mergedEntries(entry.value) where present.insert(Self.keyText(merged.key)).inserted {
                result.append(merged)
            }
        }
        return result
    }

    /// The entries a merge key's value brings: a mapping's, or those of a sequence of mappings in order.
    private func mergedEntries(_ value: ConfigNode) throws(YAMLError) -> [ConfigNode.Entry] {
        switch value.content {
        case .mapping(let entries):
            return entries
        case .sequence(let items):
            var entries: [ConfigNode.Entry] = []
            for item in items {
                guard case .mapping(let itemEntries) = item.content else {
                    throw error(at: item.mark, "merge key '<<' takes mappings, not a \(Self.kindName(item.content))")
                }
                entries += itemEntries
            }
            return entries
        case .scalar:
            throw error(at: value.mark, "merge key '<<' takes a mapping or a sequence of mappings, not a scalar")
        }
    }

    /// A key's text; `mapping(startingWith:)` admits scalar keys only.
    private static func keyText(_ key: ConfigNode) -> String {
        guard case .scalar(let text, _) = key.content else { return "" }
        return text
    }

    /// Whether `key` is the plain scalar `<<` (a quoted `"<<"` is an ordinary key).
    private static func isMergeKey(_ key: ConfigNode) -> Bool {
        key.content == .scalar("<<", quoted: false)
    }
}
