package import AssemblyLine
package import ConfigFormat

/// What a signing service signs: its Auth Key, its callers, and the allow-list params are checked against.
///
/// Decoded from a policy file by ``SigningPolicyDecoder``; ``evaluate(_:now:)`` decides on one
/// params string. The token hashes, nonces and rate are checked by the service around it.
package struct SigningPolicy: Sendable, Hashable {
    /// The Auth Key it signs for; `auth.key` must equal it.
    package var key: String
    /// Where the Auth Secret is read from.
    package var secret: SecretSource
    /// The SHA-256 of each accepted bearer token, as 64 lowercase hex digits.
    package var tokenHashes: [String]
    /// The latest `auth.expires` signed is now plus this.
    package var maxExpiresIn: Duration
    /// How far a caller's clock may run ahead of the service's before its expiry counts as too late.
    package var clockSkew: Duration
    /// The Template IDs allowed as `template_id`.
    package var templates: [String]
    /// The allowed `steps` objects; params' `steps` must equal one of them exactly.
    package var steps: [JSONValue]
    /// The Template and Step set pairs that may be sent together; any other pair is refused,
    /// even when each is allowed alone.
    package var templateSteps: [TemplateSteps]
    /// The allowed Assembly variables, each with the pattern its value must match whole.
    package var fields: [String: FieldPattern]
    /// The allowed `notify_url` values, compared exactly.
    package var notifyURLs: [String]
    /// Requests a minute each token may make.
    package var requestsPerMinute: Int
    /// Which Template API requests are signed; never per Template, since the path is not signed.
    package var templateAccess: TemplateAccess
    /// The import steps an allowed set of steps, or an allowed Template, may be sent with (``ImportStepsMatcher``).
    package var imports: [ImportRule]

    package init(
        key: String, secret: SecretSource, tokenHashes: [String], maxExpiresIn: Duration = SigningPolicy.defaultMaxExpiresIn,
        clockSkew: Duration = SigningPolicy.defaultClockSkew, templates: [String] = [], steps: [JSONValue] = [],
        templateSteps: [TemplateSteps] = [], fields: [String: FieldPattern] = [:], notifyURLs: [String] = [],
        requestsPerMinute: Int = SigningPolicy.defaultRequestsPerMinute, templateAccess: TemplateAccess = SigningPolicy.defaultTemplateAccess,
        imports: [ImportRule] = []
    ) {
        self.key = key
        self.secret = secret
        self.tokenHashes = tokenHashes
        self.maxExpiresIn = maxExpiresIn
        self.clockSkew = clockSkew
        self.templates = templates
        self.steps = steps
        self.templateSteps = templateSteps
        self.fields = fields
        self.notifyURLs = notifyURLs
        self.requestsPerMinute = requestsPerMinute
        self.templateAccess = templateAccess
        self.imports = imports
    }

    /// The Template API requests a policy signs (`template_api`), for every Template alike.
    package enum TemplateAccess: String, Sendable, Hashable, CaseIterable {
        /// None: params of `auth` alone, or with a list's or a write's keys, are refused.
        case denied = "none"
        /// Reads and lists (`GET /templates/{id}`, `GET /templates`), whose params serve `DELETE /templates/{id}` as well.
        case read
        /// Reads, and writes (`POST /templates`, `PUT /templates/{id}`) of content the policy allows, to any Template.
        case write
    }

    /// A Template and the Step set that may be sent with it.
    ///
    /// Transloadit merges request Steps into the Template's (`allow_steps_override` defaults to
    /// true), so the pair runs a workflow neither allow-list approved on its own.
    package struct TemplateSteps: Sendable, Hashable {
        package var template: String
        package var steps: JSONValue

        package init(template: String, steps: JSONValue) {
            self.template = template
            self.steps = steps
        }
    }

    /// The longest nonce accepted.
    package static let maxNonceLength = 128

    package static let defaultMaxExpiresIn: Duration = .seconds(3_600)
    package static let maxExpiresInRange: ClosedRange<Duration> = ManifestDefaults.expiresInRange
    package static let defaultClockSkew: Duration = .seconds(30)
    package static let clockSkewRange: ClosedRange<Duration> = Duration.zero...Duration.seconds(600)
    package static let defaultRequestsPerMinute = 600
    package static let requestsPerMinuteRange: ClosedRange<Int> = 1...100_000
    package static let defaultTemplateAccess = TemplateAccess.read
}
