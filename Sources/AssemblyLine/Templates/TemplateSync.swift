import ConfigFormat

/// `templates pull`, `diff` and `push` of a manifest's Template: the file in the repository against the account's Template.
///
/// A pull writes the account's Template into the file and the account's hash beside it (``TemplateSyncMark``); a push
/// first checks that the account still holds what that hash says, so that an edit made at the account since is never
/// overwritten unless the operator says `force`.
package struct TemplateSync: Sendable {
    /// What a push did.
    package enum PushOutcome: Sendable, Hashable {
        /// The account's Template now holds the file.
        case updated(id: String)
        /// The account held the file already: nothing was sent.
        case unchanged(id: String)
        /// A Template was created from the file; the manifest should name its ID.
        case created(id: String)
    }

    /// Writes a file whole (a temporary file renamed over it): `text` to `path`.
    package typealias FileWriter = @Sendable (_ text: String, _ path: String) throws -> Void

    private let manifest: String
    private let recipe: TemplateRecipe
    private let file: TemplateFile
    private let access: TemplateAccess
    private let digester: any FileDigester
    private let write: FileWriter

    /// - Throws: ``TemplateSyncError`` when the manifest keeps no Template file or names the embedded service.
    package init(_ manifest: Manifest, access: TemplateAccess, digester: any FileDigester, write: @escaping FileWriter) throws(TemplateSyncError) {
        guard case .template(let recipe) = manifest.recipe, let file = recipe.file else { throw .noTemplateFile(manifest: manifest.file) }
        guard manifest.endpoint != .embedded else { throw .embeddedEndpoint(manifest: manifest.file) }
        self.manifest = manifest.file
        self.recipe = recipe
        self.file = file
        self.access = access
        self.digester = digester
        self.write = write
    }

    /// Writes the account's Template into the file and its hash beside it; true when the file changed.
    package func pull() async throws -> Bool {
        let account = try await access.template(try id())
        let changed = account.document.text != file.document.text
        try save(account.document.text, to: file.path)
        try mark(account)
        return changed
    }

    /// The differences from the file (left) to the account's Template (right); empty when they are the same.
    package func differences() async throws -> [TemplateDifference] {
        let account = try await access.template(try id())
        return TemplateDifference.between(file.document.json, account.document.json)
    }

    /// Updates the account's Template from the file (creates it when the manifest names no ID), unless the account
    /// changed since the last pull or push and `force` is false.
    package func push(force: Bool) async throws -> PushOutcome {
        guard let id = recipe.id else {
            let id = try await access.create(file.document)
            try mark(try await access.template(id))
            return .created(id: id)
        }
        let account = try await access.template(id)
        if !force {
            let known = try Self.readMark(of: file)
            guard let known, known.templateID == id, known.accountSHA256 == hash(of: account.document) else {
                throw TemplateSyncError.accountChanged(templateID: id, file: file.displayPath, markFound: known != nil)
            }
        }
        guard account.document != file.document else {
            try mark(account)
            return .unchanged(id: id)
        }
        try await access.update(id, to: file.document)
        try mark(try await access.template(id))
        return .updated(id: id)
    }

    private func id() throws(TemplateSyncError) -> String {
        guard let id = recipe.id else { throw .noTemplateID(manifest: manifest) }
        return id
    }

    private func hash(of document: TemplateDocument) -> String {
        digester.sha256Hex(of: document.text)
    }

    private func mark(_ account: AccountTemplate) throws {
        try save(TemplateSyncMark(templateID: account.id, accountSHA256: hash(of: account.document)).text, to: TemplateSyncMark.path(of: file.path))
    }

    private func save(_ text: String, to path: String) throws {
        do {
            try write(text, path)
        } catch {
            throw TemplateSyncError.file(TemplateFileError(file: path, message: "cannot be written: \(error)"))
        }
    }

    private static func readMark(of file: TemplateFile) throws(TemplateSyncError) -> TemplateSyncMark? {
        do {
            return try TemplateSyncMark.read(besideFile: file.path, displayPath: file.displayPath)
        } catch {
            throw .file(error)
        }
    }
}
