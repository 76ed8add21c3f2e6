package import ConfigFormat

/// What an Assembly does with its files, as params members: a Template with fields, or Steps with fields.
///
/// Built from a manifest's ``Recipe``; the same recipe always gives the same members, and so the
/// same ``fingerprint``, which incremental runs compare to skip files already done the same way.
package enum AssemblyInstructions: Sendable, Hashable {
    /// A Template stored at the service (`template_id`), with Assembly variables.
    case template(id: String, fields: [String: JSONValue])
    /// Assembly Instructions given in full (`steps`), with Assembly variables.
    case steps(JSONValue, fields: [String: JSONValue])

    /// The instructions of a manifest recipe; a resize becomes ``ResizeSettings/steps``; a Template without an ID sends its file's steps.
    package init(_ recipe: Recipe) {
        switch recipe {
        case let .template(template):
            if let id = template.id {
                self = .template(id: id, fields: template.fields)
            } else {
                self = .steps(template.file?.document.steps ?? .object([:]), fields: template.fields)
            }
        case let .resize(settings): self = .steps(settings.steps, fields: [:])
        case let .steps(steps): self = .steps(steps, fields: [:])
        }
    }

    /// The params members: `template_id` or `steps`, and `fields` unless there are none.
    package var members: [String: JSONValue] {
        var members: [String: JSONValue]
        let fields: [String: JSONValue]
        switch self {
        case let .template(id, templateFields):
            members = ["template_id": .string(id)]
            fields = templateFields
        case let .steps(steps, stepFields):
            members = ["steps": steps]
            fields = stepFields
        }
        if !fields.isEmpty { members["fields"] = .object(fields) }
        return members
    }

    /// The params members of these instructions reading their inputs from `step`, which imports `sources`, instead of from
    /// uploads: the steps' `use` of `:original` names the import step, which joins them; a Template gets the import step as a
    /// `steps` member beside `template_id`, which production merges into the Template's (its own steps use ``ImportStep/name``).
    package func members(importing step: ImportStep, sources: [String]) -> [String: JSONValue] {
        var members = self.members
        let imported = step.step(importing: sources)
        switch self {
        case .template:
            members["steps"] = .object([ImportStep.name: imported])
        case let .steps(steps, _):
            var renamed = (steps.objectValue ?? [:]).mapValues { step -> JSONValue in
                guard var members = step.objectValue, let use = members["use"] else { return step }
                members["use"] = Self.renaming(use, from: ":original", to: ImportStep.name)
                return .object(members)
            }
            renamed[ImportStep.name] = imported
            members["steps"] = .object(renamed)
        }
        return members
    }

    /// A `use` value with every name `old` made `new`: a name, a list of names or of `{name}` objects, or `{steps: […]}`.
    static func renaming(_ use: JSONValue, from old: String, to new: String) -> JSONValue {
        switch use {
        case .string(old):
            return .string(new)
        case let .array(items):
            return .array(items.map { renaming($0, from: old, to: new) })
        case var .object(members):
            if let name = members["name"] { members["name"] = renaming(name, from: old, to: new) }
            if let steps = members["steps"] { members["steps"] = renaming(steps, from: old, to: new) }
            return .object(members)
        default:
            return use
        }
    }

    /// The canonical JSON of ``members``: equal exactly when two recipes do the same to each file.
    package var fingerprint: String {
        JSONValue.object(members).serialized
    }
}

extension Recipe {
    /// The canonical JSON of what this recipe does to each file, for incremental runs: its steps and fields (a Template's
    /// from its file, so that renaming it changes nothing and an edit is a new recipe); a Template known only by its ID, the ID.
    package var fingerprint: String {
        if case let .template(template) = self, let steps = template.file?.document.steps {
            return AssemblyInstructions.steps(steps, fields: template.fields).fingerprint
        }
        return AssemblyInstructions(self).fingerprint
    }
}
