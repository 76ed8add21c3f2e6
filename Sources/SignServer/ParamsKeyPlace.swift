/// Where params hold a key: at the top level of one kind's params, in `auth`, or in a written Template's content.
package enum ParamsKeyPlace: Sendable, Hashable {
    case params(ParamsKind)
    case auth
    case templateContent

    /// The keys a policy knows there; any other is refused.
    var knownKeys: Set<String> {
        switch self {
        case let .params(kind): kind.keys
        case .auth: ["key", "expires", "nonce"]
        case .templateContent: ["steps", "allow_steps_override"]
        }
    }

    /// Refuses the first key, in sorted order, that is not one of ``knownKeys``.
    ///
    /// - Throws: ``PolicyRefusal/unknownKey(_:in:)``.
    func check(_ keys: some Collection<String>) throws(PolicyRefusal) {
        for key in keys.sorted() where !knownKeys.contains(key) { throw .unknownKey(key, in: self) }
    }

    /// The key as a reason names it: `max_size` in `auth` is `auth.max_size`.
    func path(_ key: String) -> String {
        switch self {
        case .params: key
        case .auth: "auth.\(key)"
        case .templateContent: "template.\(key)"
        }
    }

    /// What a reason says the place is: `in the params of a Template read`.
    var phrase: String {
        switch self {
        case let .params(kind): "in the params of \(kind)"
        case .auth: "in auth"
        case .templateContent: "in a written Template"
        }
    }
}
