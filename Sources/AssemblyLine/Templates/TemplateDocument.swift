package import ConfigFormat

/// A Template as the repository keeps it: its content (`steps` and the content's other keys), name and signature setting.
///
/// The file is the content's keys plus `name` and `require_signature_auth`; what changes at the account by itself
/// (`created`, `modified`, `last_used`) is never in it. ``text`` renders it the same way every time: two-space
/// indentation, `name` and `require_signature_auth` first, then the content's keys, every object's keys sorted, so
/// that a pull of an unchanged Template changes no byte and a diff in review shows only what was edited.
package struct TemplateDocument: Sendable, Hashable {
    /// The keys of the file that are not content.
    package static let settingKeys = ["name", "require_signature_auth"]
    /// Keys the API returns that change without an edit: never part of the file.
    package static let volatileKeys = ["id", "created", "modified", "last_used", "encryption_version"]

    /// The Template's name at the account; nil when the file gives none.
    package var name: String?
    /// Whether the account refuses an Assembly of the Template without a signature.
    package var requireSignatureAuth: Bool
    /// The Template JSON: `steps`, and keys such as `allow_steps_override`.
    package var content: [String: JSONValue]

    package init(name: String?, requireSignatureAuth: Bool = false, content: [String: JSONValue]) {
        self.name = name
        self.requireSignatureAuth = requireSignatureAuth
        self.content = content
    }

    /// The content's `steps`.
    package var steps: JSONValue? { content["steps"] }

    /// The canonical JSON of the content: what a recipe is made of, and what drift compares.
    package var canonicalContent: String { JSONValue.object(content).serialized }

    /// The file's members in their order: `name`, `require_signature_auth`, then the content's keys sorted.
    private var members: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        if let name { members.append((key: "name", value: .string(name))) }
        members.append((key: "require_signature_auth", value: .integer(requireSignatureAuth ? 1 : 0)))
        return members + content.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// The file's text: stable, readable JSON with a final newline.
    package var text: String { JSONValue.indentedObject(members) }

    /// The file as a JSON value, for a structural diff.
    package var json: JSONValue {
        .object(Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { setting, _ in setting }))
    }
}
