/// The kind of request params are for, told from their keys alone: the path and the method are not signed.
///
/// A write key (`name`, `template`, `require_signature_auth`) makes a Template write,
/// `reparse_template` a replay, a list key (`page`, `sort`, …) a Template read, and anything
/// else an Assembly; `auth` alone is a Template read too (`GET /templates/{id}`). Params hold the
/// keys of one kind only. The kind is what the params can be for, not where they will be sent:
/// a read's params serve a `DELETE /templates/{id}` as well (docs/signing.md).
package enum ParamsKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `POST /assemblies`: instructions, fields and a notify URL.
    case assembly
    /// `POST /assemblies/{id}/replay`: `reparse_template`, and optionally Steps, fields and a notify URL.
    case replay
    /// `GET /templates/{id}` or `GET /templates`: `auth` alone, or with the list's keys; as signed, a delete too.
    case templateRead
    /// `POST /templates` or `PUT /templates/{id}`: a name, the Template's content, and its signature setting.
    case templateWrite

    /// The keys a Template read's list may carry.
    package static let listKeys = Set(TemplateListKey.allCases.map(\.rawValue))
    /// The keys of a Template write.
    package static let writeKeys: Set<String> = ["name", "template", "require_signature_auth"]
    /// The key that makes params a replay's.
    package static let replayKey = "reparse_template"

    /// The top-level keys of params of this kind, `auth` included.
    package var keys: Set<String> {
        switch self {
        case .assembly: ["auth", "template_id", "steps", "fields", "notify_url"]
        case .replay: Self.assembly.keys.union([Self.replayKey])
        case .templateRead: Self.listKeys.union(["auth"])
        case .templateWrite: Self.writeKeys.union(["auth"])
        }
    }

    /// Every top-level key some kind knows.
    static let knownKeys: Set<String> = allCases.reduce(into: []) { $0.formUnion($1.keys) }

    /// The kind of params with these top-level keys.
    ///
    /// - Throws: ``PolicyRefusal/mixedKinds(_:with:kind:)`` for a key of another kind,
    ///   ``PolicyRefusal/unknownKey(_:in:)`` for a key of none.
    package init(keys: some Collection<String>) throws(PolicyRefusal) {
        let sorted = keys.sorted()
        let deciding = Self.deciding(sorted)
        // Without a deciding key only an Assembly's keys can be known; `auth` alone reads one Template.
        let kind = deciding?.kind ?? (sorted.allSatisfy { $0 == "auth" } ? .templateRead : .assembly)
        for key in sorted where !kind.keys.contains(key) {
            guard let deciding, Self.knownKeys.contains(key) else { throw .unknownKey(key, in: .params(kind)) }
            throw .mixedKinds(key, with: deciding.key, kind: kind)
        }
        self = kind
    }

    /// The kind the first deciding key among `sorted` makes the params, a write's before a replay's before a list's.
    private static func deciding(_ sorted: [String]) -> (kind: ParamsKind, key: String)? {
        if let key = sorted.first(where: writeKeys.contains) { return (.templateWrite, key) }
        if sorted.contains(replayKey) { return (.replay, replayKey) }
        if let key = sorted.first(where: listKeys.contains) { return (.templateRead, key) }
        return nil
    }

    /// What the kind is, for reasons and the log: `a Template read`.
    package var description: String {
        switch self {
        case .assembly: "an Assembly"
        case .replay: "a replay"
        case .templateRead: "a Template read"
        case .templateWrite: "a Template write"
        }
    }
}
