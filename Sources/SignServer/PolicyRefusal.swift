import ConfigFormat

/// Why a policy refuses params: a stable code for logs and clients, and a one-line reason.
///
/// Values quoted from the params are escaped and shortened, so that a reason is always one
/// line, whatever a caller sends.
package enum PolicyRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The params are not what the contract describes (not JSON, wrong types); answered 400.
    case malformedParams(String)
    /// A key the policy does not know at its place: the top level of params of a kind, `auth`, or a written Template's content.
    case unknownKey(String, in: ParamsKeyPlace)
    /// A key of another kind of request than the one a deciding key makes the params (``ParamsKind``).
    case mixedKinds(String, with: String, kind: ParamsKind)
    /// `auth.key` is not the policy's Auth Key.
    case wrongAuthKey(String)
    case missingExpires
    /// `auth.expires` is not in the future.
    case expired(String)
    /// `auth.expires` is later than now plus the policy's maximum.
    case expiresTooLate(String, maximum: Duration)
    case missingNonce
    /// The nonce was already signed and its expiry has not passed.
    case replayedNonce
    /// Neither `template_id` nor `steps`.
    case noInstructions
    case templateNotAllowed(String)
    /// `steps` equal no allowed set; says the first difference from the closest one.
    case stepsNotAllowed(String)
    /// `template_id` and `steps` together, as a pair the policy does not name.
    case templateWithStepsNotAllowed(String)
    case fieldNotAllowed(String)
    /// The field's value does not match its pattern, or is not a string, number or boolean.
    case fieldValueNotAllowed(String)
    case notifyURLNotAllowed(String)
    /// A step the policy's `imports` would judge (an allowed set's missing import step, or a Template's one-step
    /// override) that no rule of its Robot allows; the step's name and why.
    case importNotAllowed(step: String, ImportRefusal)
    /// A Template read, from a policy with `template_api: none`.
    case templateReadNotAllowed
    /// A Template write, from a policy whose `template_api` is not `write` (the policy's setting).
    case templateWriteNotAllowed(SigningPolicy.TemplateAccess)
    /// A written Template's `steps` equal no allowed set; says the first difference from the closest one.
    case templateContentNotAllowed(String)
    /// A Template write without `require_signature_auth: 1`.
    case signatureAuthRequired

    /// True for malformed params (HTTP 400); every other refusal is a policy's (HTTP 403).
    package var isMalformed: Bool {
        if case .malformedParams = self { return true }
        return false
    }

    /// A stable upper-case code, as Transloadit names its errors.
    package var code: String {
        switch self {
        case .malformedParams: "MALFORMED_PARAMS"
        case .unknownKey: "UNKNOWN_KEY"
        case .wrongAuthKey: "AUTH_KEY_NOT_ALLOWED"
        case .missingExpires: "NO_AUTH_EXPIRES"
        case .expired: "AUTH_EXPIRED"
        case .expiresTooLate: "AUTH_EXPIRES_TOO_LATE"
        case .missingNonce: "NO_AUTH_NONCE"
        case .replayedNonce: "NONCE_REUSED"
        case .noInstructions: "NO_INSTRUCTIONS"
        case .templateNotAllowed: "TEMPLATE_NOT_ALLOWED"
        case .stepsNotAllowed: "STEPS_NOT_ALLOWED"
        case .templateWithStepsNotAllowed: "TEMPLATE_WITH_STEPS_NOT_ALLOWED"
        case .fieldNotAllowed: "FIELD_NOT_ALLOWED"
        case .fieldValueNotAllowed: "FIELD_VALUE_NOT_ALLOWED"
        case .notifyURLNotAllowed: "NOTIFY_URL_NOT_ALLOWED"
        case .importNotAllowed: "IMPORT_NOT_ALLOWED"
        case .mixedKinds: "MIXED_REQUEST_KINDS"
        case .templateReadNotAllowed: "TEMPLATE_READ_NOT_ALLOWED"
        case .templateWriteNotAllowed: "TEMPLATE_WRITE_NOT_ALLOWED"
        case .templateContentNotAllowed: "TEMPLATE_CONTENT_NOT_ALLOWED"
        case .signatureAuthRequired: "SIGNATURE_AUTH_REQUIRED"
        }
    }

    /// The reason, one line.
    package var reason: String {
        switch self {
        case let .malformedParams(what): what
        case let .unknownKey(key, place):
            "unknown key \(Self.quote(place.path(key))) \(place.phrase); expected only \(Self.list(place.knownKeys))"
        case let .mixedKinds(key, deciding, kind):
            "key \(Self.quote(key)) cannot go with \(Self.quote(deciding)), which makes these the params of \(kind): params are for one kind of request"
        case let .wrongAuthKey(key): "auth.key \(Self.quote(key)) is not the Auth Key this service signs for"
        case .missingExpires: "auth.expires is missing; expected an expiry"
        case let .expired(text): "auth.expires \(Self.quote(text)) is in the past"
        case let .expiresTooLate(text, maximum): "auth.expires \(Self.quote(text)) is later than now + \(ConfigUnits.formatDuration(maximum)), the policy's max_expires_in"
        case .missingNonce: "auth.nonce is missing; expected a fresh nonce for each request"
        case .replayedNonce: "auth.nonce was already used; expected a fresh nonce for each request"
        case .noInstructions: "expected template_id or steps"
        case let .templateNotAllowed(id): "template_id \(Self.quote(id)) is not an allowed Template"
        case let .stepsNotAllowed(difference): "steps are not an allowed set: \(difference)"
        case let .templateWithStepsNotAllowed(id):
            "template_id \(Self.quote(id)) with these steps is not an allowed pair (request Steps override a Template's); name the pair in template_steps"
        case let .fieldNotAllowed(name): "field \(Self.quote(name)) is not allowed"
        case let .fieldValueNotAllowed(name): "the value of field \(Self.quote(name)) is not allowed by its pattern"
        case let .notifyURLNotAllowed(url): "notify_url \(Self.quote(url)) is not allowed"
        case let .importNotAllowed(step, refusal): "import step \(Self.quote(step)): \(refusal)"
        case .templateReadNotAllowed:
            "params of auth alone or with a list's keys are a Template read, which this policy refuses (template_api: none); an Assembly needs template_id or steps"
        case let .templateWriteNotAllowed(access):
            "params with name, template or require_signature_auth are a Template write, signed only with template_api: write; this policy has \(access.rawValue)"
        case let .templateContentNotAllowed(difference): "template.steps are not an allowed set: \(difference)"
        case .signatureAuthRequired:
            "a Template written through this service must set require_signature_auth: 1, else anyone with the Auth Key may run it unsigned (unless the account requires signatures)"
        }
    }

    /// `CODE: reason`.
    package var description: String { "\(code): \(reason)" }

    /// The text as a JSON string literal, cut to ``quoteLimit`` characters: one line, whatever it holds.
    static func quote(_ text: String) -> String {
        let cut = text.count > quoteLimit ? String(text.prefix(quoteLimit)) + "…" : text
        return JSONValue.string(cut).serialized
    }

    static let quoteLimit = 80

    /// Names in sorted order, as a reason lists them: `expires, key and nonce`.
    private static func list(_ names: Set<String>) -> String {
        let sorted = names.sorted()
        guard let last = sorted.last, sorted.count > 1 else { return sorted.first ?? "" }
        return sorted.dropLast().joined(separator: ", ") + " and " + last
    }
}
