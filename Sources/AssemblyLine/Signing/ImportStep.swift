package import ConfigFormat

/// The step that brings a shard's remote inputs into its Assembly in place of uploads: an import Robot named `imported`.
///
/// Recipes written for uploads read `:original`; with remote inputs their `use` names this step
/// instead (``AssemblyInstructions/importing(_:sources:)``). A Template known by its ID must use it itself.
package struct ImportStep: Sendable, Hashable {
    /// The step's name in the Assembly Instructions.
    package static let name = "imported"

    /// The import Robots AssemblyLine sends.
    package enum Robot: String, Sendable, Hashable {
        case s3 = "/s3/import"
        case minio = "/minio/import"
        case http = "/http/import"
    }

    package var robot: Robot
    /// The account's Template Credentials name, for the bucket imports.
    package var credentials: String?
    /// The S3-compatible endpoint's `host[:port]`, for `/minio/import`.
    package var host: String?
    /// The bucket whose keys the step imports (named by the Template Credentials, never sent); nil for URLs.
    package var bucket: String?

    package init(robot: Robot, credentials: String?, host: String?, bucket: String?) {
        self.robot = robot
        self.credentials = credentials
        self.host = host
        self.bucket = bucket
    }

    /// What the step names for an input of the ledger's `path`: the key of a bucket's path, or the URL itself.
    package func source(of path: String) -> String {
        guard let bucket else { return path }
        return RemoteInputPath.key(of: path, bucket: bucket) ?? path
    }

    /// The step importing `sources` (keys for the bucket imports, URLs for `/http/import`), always as an array:
    /// `/http/import` splits a string on its `url_delimiter`, which a URL may hold. It says `result: true`, so that the
    /// status lists the files it gave with the key or URL of each: an execution error that names one of them by its ID
    /// fails that input alone, as one naming an upload does (``ResultMapper/failedFileIndex(of:files:)``).
    package func step(importing sources: [String]) -> JSONValue {
        var members: [String: JSONValue] = ["robot": .string(robot.rawValue), "result": .bool(true)]
        let list = JSONValue.array(sources.map(JSONValue.string))
        switch robot {
        case .s3, .minio: members["path"] = list
        case .http: members["url"] = list
        }
        if let credentials { members["credentials"] = .string(credentials) }
        if let host { members["host"] = .string(host) }
        return .object(members)
    }
}
