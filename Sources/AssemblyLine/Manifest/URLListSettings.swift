/// `inputs.urls`: the list of URLs a night's inputs are read from, each imported by the service with `/http/import`.
///
/// Nothing is uploaded and no credentials are needed: the service fetches each URL itself. Globs, when the
/// manifest gives some, match `/` and a row's output name, as a bucket's match its keys below the prefix.
package struct URLListSettings: Sendable, Hashable {
    /// The list's absolute path, resolved against the manifest's directory; it names the list in messages too.
    package var file: String
    /// The list's format as the manifest names it; nil for the one the file's extension names.
    package var format: URLListFormat?

    /// The virtual directory output names are read under: globs and relative paths work on them as on files.
    package static let root = "/"

    package init(file: String, format: URLListFormat?) {
        self.file = file
        self.format = format
    }

    /// The step that imports a shard's URLs: `/http/import`, naming them as an array.
    package var importStep: ImportStep {
        ImportStep(robot: .http, credentials: nil, host: nil, bucket: nil)
    }
}
