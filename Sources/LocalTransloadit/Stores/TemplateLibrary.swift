import AssemblyLine
package import ConfigFormat

/// The Templates a service holds from its start, by Template ID: `serve --templates FILE`, or a manifest's
/// Template file that the embedded service runs under the manifest's Template ID.
///
/// ```swift
/// var configuration = LocalServiceConfiguration(dataDirectory: directory)
/// configuration.templates.hold(
///     TemplateLibrary.Template(name: "thumbnails", content: ["steps": steps], requireSignatureAuth: false),
///     as: "2f6d1c0e4b7a4e8f9a1b2c3d4e5f6a7b")
/// ```
///
/// At each start the service puts every one into its ``TemplateStore``, replacing a stored Template of
/// the same ID whose name, content or signature setting differ: what the configuration says is what
/// runs after a restart, whatever the Template API changed in between.
package struct TemplateLibrary: Sendable, Hashable {
    /// One Template as the configuration gives it.
    package struct Template: Sendable, Hashable {
        /// The name the Template API shows (`name`); nil names it by its ID.
        package var name: String?
        /// The Template JSON: `steps`, and optionally `allow_steps_override` (default true), `fields`,
        /// `notify_url`, `auth`...; Assemblies that name the Template get it merged under their params.
        package var content: [String: JSONValue]
        /// True refuses an Assembly that names the Template without a valid signature, even on a service
        /// that requires none (`require_signature_auth: 1`).
        package var requireSignatureAuth: Bool

        package init(name: String? = nil, content: [String: JSONValue], requireSignatureAuth: Bool = false) {
            self.name = name
            self.content = content
            self.requireSignatureAuth = requireSignatureAuth
        }
    }

    package private(set) var templates: [String: Template]

    package init(_ templates: [String: Template] = [:]) {
        self.templates = templates
    }

    /// No Templates at all.
    package static let empty = TemplateLibrary()

    /// Holds `template` under `id`, in place of any Template the library held under it.
    package mutating func hold(_ template: Template, as id: String) {
        templates[id] = template
    }
}
