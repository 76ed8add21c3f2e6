import ConfigFormat

/// Builds the one document of a YAML stream as a `ConfigNode` tree from libyaml events,
/// expanding aliases (bounded) and checking tags and nesting depth.
///
/// Mappings (duplicate keys, merge keys) are in `NodeBuilder+Mapping.swift`.
struct NodeBuilder {
    /// A built node and how many nodes it holds, itself included, aliases expanded.
    struct Built {
        var node: ConfigNode
        var size: Int
    }

    /// The prefix libyaml gives the `!!` shorthand tags.
    private static let coreTagPrefix = "tag:yaml.org,2002:"

    let source: SourceText
    let events: EventParser
    /// Completed anchored nodes by anchor name; a later anchor of the same name replaces it.
    private var anchors: [String: Built] = [:]
    /// Anchors whose node is being built, to explain an alias to its own container.
    private var openAnchors: Set<String> = []
    /// Nodes added by alias expansion so far.
    private var expandedNodes = 0
    /// Collections open around the current event.
    private var depth = 0

    init(source: SourceText) throws(YAMLError) {
        self.source = source
        events = try EventParser(source: source)
    }

    /// The document's root, or an empty mapping at 1:1 when there is no content.
    ///
    /// libyaml always starts with a stream start, and follows a document start with exactly
    /// one node and a document end, so those events are read without checking their kind.
    mutating func document() throws(YAMLError) -> ConfigNode {
        let empty = ConfigNode(.mapping([]), at: SourceMark(line: 1, column: 1))
        _ = try events.next()
        guard case .documentStart = try events.next().kind else { return empty }
        let root = try node(from: events.next())
        _ = try events.next()
        let following = try events.next()
        if case .documentStart = following.kind {
            throw error(at: following.mark, "a second YAML document starts here; the file must hold exactly one")
        }
        if case .scalar("", quoted: false) = root.node.content { return empty }
        return root.node
    }

    /// The node that starts with `event`, reading the events of its children.
    mutating func node(from event: ParserEvent) throws(YAMLError) -> Built {
        if let anchor = event.anchor { openAnchors.insert(anchor) }
        let built: Built
        switch event.kind {
        case .alias(let name):
            return try expand(alias: name, at: event.mark)
        case .scalar(let text, let quoted):
            try checkTag(of: event, accepting: "str", on: "scalar")
            // A tag that passed the check makes the scalar a string.
            built = Built(node: ConfigNode(.scalar(text, quoted: quoted || event.tag != nil), at: event.mark), size: 1)
        case .sequenceStart:
            try checkTag(of: event, accepting: "seq", on: "sequence")
            built = try sequence(startingWith: event)
        case .mappingStart:
            try checkTag(of: event, accepting: "map", on: "mapping")
            built = try mapping(startingWith: event)
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            throw error(at: event.mark, "libyaml reported \(event.kind) where a node was expected")
        }
        if let anchor = event.anchor {
            openAnchors.remove(anchor)
            anchors[anchor] = built
        }
        return built
    }

    /// Counts one more level of nesting, refusing to go past ``YAMLReader/maxDepth``.
    mutating func enterCollection(_ event: ParserEvent) throws(YAMLError) {
        depth += 1
        guard depth <= YAMLReader.maxDepth else {
            throw error(at: event.mark, "collections are nested deeper than \(YAMLReader.maxDepth) levels")
        }
    }

    /// Counts one level of nesting less, when a collection ends.
    mutating func leaveCollection() {
        depth -= 1
    }

    /// An error at `mark` in this source.
    func error(at mark: SourceMark, _ message: String) -> YAMLError {
        YAMLError(source: source, mark: mark, message: message)
    }

    /// "scalar", "sequence" or "mapping", for messages.
    static func kindName(_ content: ConfigNode.Content) -> String {
        switch content {
        case .scalar: "scalar"
        case .sequence: "sequence"
        case .mapping: "mapping"
        }
    }

    private mutating func sequence(startingWith start: ParserEvent) throws(YAMLError) -> Built {
        try enterCollection(start)
        defer { leaveCollection() }
        var items: [ConfigNode] = []
        var size = 1
        while true {
            let event = try events.next()
            if case .sequenceEnd = event.kind { break }
            let item = try node(from: event)
            items.append(item.node)
            size += item.size
        }
        return Built(node: ConfigNode(.sequence(items), at: start.mark), size: size)
    }

    /// A copy of the anchored node, with the alias's mark on its root.
    private mutating func expand(alias name: String, at mark: SourceMark) throws(YAMLError) -> Built {
        guard let anchored = anchors[name] else {
            if openAnchors.contains(name) {
                throw error(at: mark, "alias '*\(name)' is inside the node anchored '&\(name)'; recursive aliases are not supported")
            }
            throw error(at: mark, "alias '*\(name)' has no anchor '&\(name)' before it")
        }
        expandedNodes += anchored.size
        guard expandedNodes <= YAMLReader.maxAliasNodes else {
            throw error(at: mark, "aliases expand to more than \(YAMLReader.maxAliasNodes) nodes; refusing a document that grows exponentially")
        }
        var copy = anchored.node
        copy.mark = mark
        return Built(node: copy, size: anchored.size)
    }

    /// Refuses any tag but the non-specific `!` and `!!kind` on a node of that kind.
    private func checkTag(of event: ParserEvent, accepting kind: String, on name: String) throws(YAMLError) {
        guard let tag = event.tag, tag != "!", tag != Self.coreTagPrefix + kind else { return }
        let shown = tag.hasPrefix(Self.coreTagPrefix) ? "!!" + tag.dropFirst(Self.coreTagPrefix.count) : tag
        throw error(at: event.mark, "unsupported tag '\(shown)' on a \(name); only !!\(kind) is accepted there")
    }
}
