/// What a signing service signs: its Auth Key, its callers, and the allow-list params are checked against.
///
/// Decoded from a policy file by ``SigningPolicyDecoder``; ``evaluate(_:now:)`` decides on one
/// params string. The token hashes, nonces and rate are checked by the service around it.
public struct SigningPolicy: Sendable, Hashable {
    /// The Auth Key it signs for; `auth.key` must equal it.
    public var key: String
    /// Where the Auth Secret is read from.
    public var secret: SecretSource
    /// The SHA-256 of each accepted bearer token, as 64 lowercase hex digits.
    public var tokenHashes: [String]
    /// The latest `auth.expires` signed is now plus this.
    public var maxExpiresIn: Duration
    /// How far a caller's clock may run ahead of the service's before its expiry counts as too late.
    public var clockSkew: Duration
    /// The Template IDs allowed as `template_id`.
    public var templates: [String]
    /// The allowed `steps` objects; params' `steps` must equal one of them exactly.
    public var steps: [JSONValue]
    /// The allowed Assembly variables, each with the pattern its value must match whole.
    public var fields: [String: FieldPattern]
    /// The allowed `notify_url` values, compared exactly.
    public var notifyURLs: [String]
    /// Requests a minute each token may make.
    public var requestsPerMinute: Int

    public init(
        key: String, secret: SecretSource, tokenHashes: [String], maxExpiresIn: Duration = SigningPolicy.defaultMaxExpiresIn,
        clockSkew: Duration = SigningPolicy.defaultClockSkew, templates: [String] = [], steps: [JSONValue] = [],
        fields: [String: FieldPattern] = [:], notifyURLs: [String] = [],
        requestsPerMinute: Int = SigningPolicy.defaultRequestsPerMinute
    ) {
        self.key = key
        self.secret = secret
        self.tokenHashes = tokenHashes
        self.maxExpiresIn = maxExpiresIn
        self.clockSkew = clockSkew
        self.templates = templates
        self.steps = steps
        self.fields = fields
        self.notifyURLs = notifyURLs
        self.requestsPerMinute = requestsPerMinute
    }

    /// The top-level params keys a policy knows; any other is refused.
    public static let paramsKeys: Set<String> = ["auth", "template_id", "steps", "fields", "notify_url"]
    /// The `auth` keys a policy knows; any other is refused.
    public static let authKeys: Set<String> = ["key", "expires", "nonce"]
    /// The longest nonce accepted.
    public static let maxNonceLength = 128

    public static let defaultMaxExpiresIn: Duration = .seconds(3_600)
    public static let maxExpiresInRange: ClosedRange<Duration> = ManifestDefaults.expiresInRange
    public static let defaultClockSkew: Duration = .seconds(30)
    public static let clockSkewRange: ClosedRange<Duration> = Duration.zero...Duration.seconds(600)
    public static let defaultRequestsPerMinute = 600
    public static let requestsPerMinuteRange: ClosedRange<Int> = 1...100_000
}
