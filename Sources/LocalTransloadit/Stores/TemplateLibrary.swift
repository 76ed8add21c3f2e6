import AssemblyLine
package import ConfigFormat
import HTTPServer

/// The Templates the service knows, by Template ID, and the rule that merges one under a request's params.
///
/// A Template is stored Assembly Instructions (`steps`, and optionally `fields`, `notify_url`,
/// `auth`...) plus `allow_steps_override` (default true). A request that names `template_id`
/// gets the Template's content deep-merged under its own params: request values win, and a
/// request value of `null` keeps the Template's (transloadit-api.md §6.3).
package struct TemplateLibrary: Sendable, Hashable {
    /// One stored Template.
    package struct Template: Sendable, Hashable {
        /// The instructions, without `allow_steps_override`.
        package var content: [String: JSONValue]
        /// False refuses requests that also send `steps` (`TEMPLATE_DENIES_STEPS_OVERRIDE`).
        package var allowStepsOverride: Bool

        package init(content: [String: JSONValue], allowStepsOverride: Bool = true) {
            self.content = content
            self.allowStepsOverride = allowStepsOverride
        }
    }

    package private(set) var templates: [String: Template]

    package init(_ templates: [String: Template] = [:]) {
        self.templates = templates
    }

    /// No Templates at all.
    package static let empty = TemplateLibrary()

    /// The request's params with the named Template merged under them, or the params as they are without `template_id`.
    ///
    /// - Throws: `TEMPLATE_NOT_FOUND` (404) for an unknown ID, `TEMPLATE_DENIES_STEPS_OVERRIDE`
    ///   (400) when the Template forbids the `steps` the request sends.
    func merged(_ params: [String: JSONValue]) throws(APIError) -> (params: [String: JSONValue], templateID: String?) {
        guard let idValue = params["template_id"], idValue != .null else { return (params, nil) }
        guard let id = idValue.stringValue, !id.isEmpty else {
            throw .validation(.noTemplateID, "template_id must be a non-empty string.")
        }
        guard let template = templates[id] else {
            throw APIError(.templateNotFound, status: 404, "The Template \(EchoedText.excerpt(id)) could not be found.")
        }
        if !template.allowStepsOverride, let steps = params["steps"], steps != .null {
            throw .validation(
                .templateDeniesStepsOverride,
                "The Template \(id) does not allow steps to be overridden: template_id and steps are mutually exclusive.")
        }
        var request = params
        request["allow_steps_override"] = nil
        return (Self.deepMerge(template.content, under: request), id)
    }

    /// `base` with `overlay` merged over it: objects merge key by key, anything else in `overlay` replaces, `null` keeps `base`.
    static func deepMerge(_ base: [String: JSONValue], under overlay: [String: JSONValue]) -> [String: JSONValue] {
        var merged = base
        for (key, value) in overlay {
            switch (merged[key], value) {
            case (_, .null) where merged[key] != nil:
                continue
            case (.object(let lower)?, .object(let upper)):
                merged[key] = .object(deepMerge(lower, under: upper))
            default:
                merged[key] = value
            }
        }
        return merged
    }
}
