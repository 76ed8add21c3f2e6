package import ConfigFormat

/// A Template as the account holds it, read from the Template API's answer: untrusted until its members check out.
package struct AccountTemplate: Sendable, Hashable {
    /// The Template ID, 32 hex digits at Transloadit.
    package var id: String
    /// Its content, name and signature setting, as a file would hold them.
    package var document: TemplateDocument
    /// When the account last changed it, as the API says it (shown, never compared).
    package var modified: String?

    package init(id: String, document: TemplateDocument, modified: String? = nil) {
        self.id = id
        self.document = document
        self.modified = modified
    }

    /// The Template an answer describes: `id`, `name`, `content` (an object, or its JSON text as some answers give it),
    /// `require_signature_auth` (0 or 1, or a boolean) and `modified`; `expectedID` when the request named one.
    ///
    /// - Throws: ``TemplateFileError`` naming the member that is not as the API documents it.
    package init(answer: JSONValue, expectedID: String? = nil) throws(TemplateFileError) {
        let place = "the account's Template\(expectedID.map { " \($0)" } ?? "")"
        guard let members = answer.objectValue, case .string(let id)? = members["id"], !id.isEmpty, id.count <= 128 else {
            throw TemplateFileError(file: place, field: "id", message: "expected the Template's ID in the answer")
        }
        if let expectedID, id != expectedID {
            throw TemplateFileError(file: place, field: "id", message: "the answer is about another Template (\(RemoteText.escaped(id, limit: 40)))")
        }
        var file = members.filter { TemplateDocument.settingKeys.contains($0.key) }
        switch members["content"] {
        case .object(let content)?:
            file.merge(content) { setting, _ in setting }
        case .string(let text)?:
            guard case .object(let content)? = try? JSONValue(parsing: text) else {
                throw TemplateFileError(file: place, field: "content", message: "expected the Template's JSON")
            }
            file.merge(content) { setting, _ in setting }
        default:
            throw TemplateFileError(file: place, field: "content", message: "expected the Template's content with its steps")
        }
        if case .string(let flag)? = file["require_signature_auth"] { file["require_signature_auth"] = flag == "1" ? .integer(1) : .integer(0) }
        let modified: String? = if case .string(let text)? = members["modified"] { text } else { nil }
        self.init(id: id, document: try TemplateDocument(.object(file), file: place), modified: modified)
    }
}
