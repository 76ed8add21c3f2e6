/// Why `templates pull`, `diff` or `push` did not do its work; the service's and the signer's errors pass as they are.
package enum TemplateSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest's recipe is no Template with a file.
    case noTemplateFile(manifest: String)
    /// Pull and diff need the account's Template ID in the manifest.
    case noTemplateID(manifest: String)
    /// The endpoint is the embedded service, which has no account.
    case embeddedEndpoint(manifest: String)
    /// The account's Template is not what it was at the last pull or push (or there was none): a push would lose its edit.
    case accountChanged(templateID: String, file: String, markFound: Bool)
    /// The Template file or its mark could not be read or written.
    case file(TemplateFileError)

    package var description: String {
        switch self {
        case let .noTemplateFile(manifest):
            "\(manifest): template.file: the manifest keeps no Template file; expected template: {file: templates/NAME.json, id: ...}"
        case let .noTemplateID(manifest):
            "\(manifest): template.id: expected the account's Template ID (push without one creates the Template and prints it)"
        case let .embeddedEndpoint(manifest):
            "\(manifest): endpoint: the embedded service has no account; the Template commands need the endpoint of an account"
        case let .accountChanged(id, file, markFound):
            "the account's Template \(id) " + (markFound ? "changed since the last pull or push of \(file)" : "was never pulled into \(file)")
                + "; `assemblyline templates diff` shows how, `templates pull` takes the account's version, `templates push --force` overwrites it"
        case let .file(error):
            error.description
        }
    }
}
