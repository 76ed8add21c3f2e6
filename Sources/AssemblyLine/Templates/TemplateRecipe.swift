package import ConfigFormat

/// A recipe kept in a Template: the account's Template by its ID, its content in a file beside the manifest, or both.
///
/// With a file, the client knows the steps (`{ext}`, `output.steps`, export Robots) and the recipe is the content's
/// `steps` with the manifest's `fields`, so an edited file is a new recipe and renaming the Template is none. With an
/// ID the Assemblies name the account's Template (`template_id`), which a run first compares with the file; with a
/// file alone they carry its steps.
package struct TemplateRecipe: Sendable, Hashable {
    /// The account's Template ID.
    package var id: String?
    /// The file that holds the Template's content in the repository.
    package var file: TemplateFile?
    /// The Assembly variables the manifest gives the Template.
    package var fields: [String: JSONValue]

    package init(id: String?, file: TemplateFile? = nil, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.file = file
        self.fields = fields
    }
}

/// A Template file as a manifest names it, with what it holds.
package struct TemplateFile: Sendable, Hashable {
    /// The absolute path.
    package var path: String
    /// The path as the manifest gives it, for messages.
    package var displayPath: String
    package var document: TemplateDocument

    package init(path: String, displayPath: String, document: TemplateDocument) {
        self.path = path
        self.displayPath = displayPath
        self.document = document
    }
}
