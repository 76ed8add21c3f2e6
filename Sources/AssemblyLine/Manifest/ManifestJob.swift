import ConfigFormat

/// Which job a manifest is, as the ledger keys its runs, done index and known bad files: what it does, not where its file lies.
///
/// The identity is the manifest's `name`, its resolved `output.dir` and its layout: a copy of the manifest in
/// another place with the same three is the same job and skips what the job did (recorded outputs are
/// absolute paths, so a copy writing elsewhere is another job). The recipe is not part of it: a recipe is
/// what a done file was made by, and a new one starts its own done set within the same job.
package struct ManifestJob: Sendable, Hashable {
    /// The identity as the ledger stores it: canonical JSON of the name, the output directory and the layout.
    package let key: String
    /// The manifest's absolute path.
    package let manifestPath: String

    package init(name: String, outputDirectory: String, layout: String, manifestPath: String) {
        key = JSONValue.object(["name": .string(name), "output_dir": .string(outputDirectory), "layout": .string(layout)]).serialized
        self.manifestPath = manifestPath
    }

    /// The job of rows written before the ledger kept jobs (version 13): keyed by their manifest's path.
    package init(legacyPath path: String) {
        key = Self.legacyKey(of: path)
        manifestPath = path
    }

    /// The key of the rows a manifest at `path` wrote before the ledger kept jobs.
    package static func legacyKey(of path: String) -> String {
        "path:" + path
    }

    /// The keys a read of the job matches: its own, and its manifest path's from before, which the job's
    /// first run takes over (``RunLedger/claim(_:)``).
    package var keys: [String] {
        let legacy = Self.legacyKey(of: manifestPath)
        return key == legacy ? [key] : [key, legacy]
    }
}

extension Manifest {
    /// The job this manifest is, by `output.dir` as the manifest gives it: a partition's is its batch's (`{partition}`
    /// kept), and a run given `--state-dir` is the manifest's job wherever that puts outputs that follow it.
    package var job: ManifestJob {
        ManifestJob(name: name, outputDirectory: jobOutputDir ?? output.dir, layout: output.layout.description, manifestPath: file)
    }

    /// What the manifest takes as inputs, as the ledger stores it: canonical JSON of the base and the patterns as they
    /// apply (resolved against the manifest's directory, so that a moved manifest naming the same files has the same key).
    /// Two manifests of one name and job with other inputs would mark each other's files missed.
    package var inputsKey: String {
        var members: [String: JSONValue] = [
            "base": .string(inputs.base),
            "include": .array(inputs.include.map { .string(PathText.normalizedAbsolute($0.description)) }),
            "exclude": .array(inputs.exclude.map { .string(PathText.normalizedAbsolute($0.description)) }),
        ]
        if let bucket = inputs.bucket { members["bucket"] = .string("\(bucket.address)/\(bucket.prefix)") }
        if let list = inputs.urlList { members["urls"] = .string(list.file) }
        return JSONValue.object(members).serialized
    }
}
