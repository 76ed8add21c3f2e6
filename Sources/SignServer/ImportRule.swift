/// What a policy lets one import step read (`imports`): its Robot, the Template Credentials it may name, and where.
///
/// An Assembly's `steps` may be an allowed set plus one import step that the set's steps `use`, and a
/// Template may be sent with a `steps` override of one import step (``ImportStepsMatcher``); that step must
/// satisfy a rule of its Robot (``refusal(of:)``).
package struct ImportRule: Sendable, Hashable {
    /// The import Robots a policy can allow.
    package enum Robot: String, Sendable, Hashable, CaseIterable {
        case s3 = "/s3/import"
        case minio = "/minio/import"
        case http = "/http/import"

        /// The keys a step of this Robot may have beside `robot` (`headers` only when a rule allows them).
        var keys: Set<String> {
            switch self {
            case .s3: ["credentials", "path", "recursive", "page_number", "files_per_page", "return_file_stubs", "result"]
            case .minio: Robot.s3.keys.union(["host"])
            case .http: ["url", "url_delimiter", "headers", "fail_fast", "max_file_size", "return_file_stubs", "result"]
            }
        }
    }

    package var robot: Robot
    /// The Template Credentials names a bucket import may name (`credentials`).
    package var credentials: [String]
    /// A bucket import's `path` elements must each lie under one of these (``ImportTarget``).
    package var prefixes: [String]
    /// A `/minio/import` step's `host` must be one of these, exactly.
    package var hosts: [String]
    /// An `/http/import` step's `url` elements must each lie under one of these (``ImportURL``).
    package var urlPrefixes: [String]
    /// Whether an `/http/import` step may send `headers`, which may carry credentials to the URL's host.
    package var allowsHeaders: Bool

    package init(robot: Robot, credentials: [String] = [], prefixes: [String] = [], hosts: [String] = [], urlPrefixes: [String] = [],
                 allowsHeaders: Bool = false) {
        self.robot = robot
        self.credentials = credentials
        self.prefixes = prefixes
        self.hosts = hosts
        self.urlPrefixes = urlPrefixes
        self.allowsHeaders = allowsHeaders
    }
}
