import ConfigFormat

extension Recipe {
    /// The account Template the recipe names (`template.id`), when it names one.
    package var accountTemplateID: String? {
        guard case let .template(template) = self else { return nil }
        return template.id
    }

    /// True when a run recorded under `fingerprint`, of the account Template `templateID`, may be resumed under this recipe.
    ///
    /// The same recipe may; and so may an edit of the Template's file alone, since the account's Template is what its
    /// Assemblies run and a push brings the edit there (a replay with `reparse_template` 1 then runs it): this recipe is a
    /// Template with an ID and a file, the run was of that same Template ID, and the fields are the same. Any other change
    /// (steps or resize, another Template, other fields, a run recorded before ledger version 15 kept the ID) may not.
    package func resumes(fingerprint: String, templateID: String?) -> Bool {
        if fingerprint == self.fingerprint { return true }
        guard case let .template(template) = self, let id = template.id, template.file != nil, templateID == id,
              let recorded = (try? JSONValue(parsing: fingerprint))?.objectValue, recorded["steps"] != nil else { return false }
        return recorded["fields"] == (template.fields.isEmpty ? nil : JSONValue.object(template.fields))
    }
}
