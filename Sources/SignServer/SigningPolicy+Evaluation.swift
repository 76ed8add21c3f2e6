import AssemblyLine
import ConfigFormat
package import Foundation

extension SigningPolicy {
    /// Decides whether `params` may be signed at `now`: the pure part of the policy, without tokens, nonces seen or rates.
    ///
    /// The rules (issue 4): the params parse as a JSON object whose top-level keys are those of
    /// one kind of request (issue 34, ``ParamsKind``) and whose `auth` has no unknown key;
    /// `auth.key` is the policy's key; `auth.expires` is in the future and no later than
    /// now + ``maxExpiresIn`` (+ ``clockSkew``); `auth.nonce` is present. Then by their kind, an
    /// Assembly's: `template_id` is allowed or `steps` equal one allowed set exactly (or one plus an import
    /// step that ``imports`` allow), and when both are sent the pair is one of ``templateSteps`` (request Steps
    /// override a Template's) or an allowed Template with an override of one allowed import step;
    /// every field is allowed and its value matches its pattern; `notify_url` is allowed. A
    /// replay's: `reparse_template` 0 or 1, and any instructions, fields and notify URL as an
    /// Assembly's. A Template read's or write's: ``templateAccess`` (`+TemplateRequests`).
    package func evaluate(_ params: String, now: Date) -> PolicyDecision {
        do throws(PolicyRefusal) {
            let (nonce, expires, kind) = try check(params, now: now)
            return .allow(nonce: nonce, expires: expires, kind: kind)
        } catch {
            return .refuse(error)
        }
    }

    private func check(_ params: String, now: Date) throws(PolicyRefusal) -> (nonce: String, expires: Date, kind: ParamsKind) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: params)
        } catch {
            throw .malformedParams("params are not strict JSON: \(error)")
        }
        guard let members = value.objectValue else { throw .malformedParams("expected params to be a JSON object") }
        let kind = try ParamsKind(keys: members.keys)
        let (nonce, expires) = try auth(members["auth"], now: now)
        switch kind {
        case .assembly:
            try instructions(members)
            try fields(members["fields"])
            try notifyURL(members["notify_url"])
        case .replay:
            try replay(members)
        case .templateRead:
            try templateRead(members)
        case .templateWrite:
            try templateWrite(members)
        }
        return (nonce, expires, kind)
    }

    private func auth(_ value: JSONValue?, now: Date) throws(PolicyRefusal) -> (nonce: String, expires: Date) {
        guard let value else { throw .malformedParams("auth is missing; expected an object with key, expires and nonce") }
        guard let auth = value.objectValue else { throw .malformedParams("expected auth to be an object with key, expires and nonce") }
        try ParamsKeyPlace.auth.check(auth.keys)
        guard let keyValue = auth["key"] else { throw .malformedParams("auth.key is missing; expected the Auth Key") }
        guard let key = keyValue.stringValue else { throw .malformedParams("expected auth.key to be a string") }
        guard key == self.key else { throw .wrongAuthKey(key) }
        guard let expiresValue = auth["expires"] else { throw .missingExpires }
        guard let text = expiresValue.stringValue, let expires = UTCDateTime(authExpiresText: text)?.date else {
            throw .malformedParams("expected auth.expires to be a string of the form YYYY/MM/DD HH:MM:SS+00:00 (or ISO 8601 in UTC)")
        }
        guard expires > now else { throw .expired(text) }
        guard expires <= now.addingTimeInterval(Self.seconds(maxExpiresIn + clockSkew)) else {
            throw .expiresTooLate(text, maximum: maxExpiresIn)
        }
        guard let nonceValue = auth["nonce"] else { throw .missingNonce }
        guard let nonce = nonceValue.stringValue, Self.isNonce(nonce) else {
            throw .malformedParams("expected auth.nonce to be 1 to \(Self.maxNonceLength) printable ASCII characters")
        }
        return (nonce, expires)
    }

    private func instructions(_ members: [String: JSONValue]) throws(PolicyRefusal) {
        let template = members["template_id"], steps = members["steps"]
        guard template != nil || steps != nil else { throw .noInstructions }
        if let template, template.stringValue == nil { throw .malformedParams("expected template_id to be a string") }
        if let steps, steps.objectValue == nil { throw .malformedParams("expected steps to be an object of Steps") }
        let importSteps = ImportStepsMatcher(allowed: self.steps, imports: imports)
        switch (template?.stringValue, steps) {
        case let (id?, steps?):
            if templateSteps.contains(TemplateSteps(template: id, steps: steps)) { return }
            if templates.contains(id), try importSteps.matchesOverride(steps.objectValue ?? [:]) { return }
            throw .templateWithStepsNotAllowed(id)
        case let (id?, nil):
            guard templates.contains(id) else { throw .templateNotAllowed(id) }
        case let (nil, steps?):
            guard let difference = StepsMatcher(allowed: self.steps).difference(steps) else { return }
            if try importSteps.matchesSet(steps.objectValue ?? [:]) { return }
            throw .stepsNotAllowed(difference)
        case (nil, nil):
            throw .noInstructions
        }
    }

    /// A replay runs the parent Assembly's instructions (or its Template's current content), unless it sends its own.
    private func replay(_ members: [String: JSONValue]) throws(PolicyRefusal) {
        guard let reparse = members[ParamsKind.replayKey], reparse == .integer(0) || reparse == .integer(1) else {
            throw .malformedParams("expected reparse_template to be 0 or 1")
        }
        if members["template_id"] != nil || members["steps"] != nil { try instructions(members) }
        try fields(members["fields"])
        try notifyURL(members["notify_url"])
    }

    private func fields(_ value: JSONValue?) throws(PolicyRefusal) {
        guard let value else { return }
        guard let fields = value.objectValue else { throw .malformedParams("expected fields to be an object") }
        for name in fields.keys.sorted() {
            if self.fields[name] == nil, let form = Self.partitionTags[name] {
                guard let text = fields[name]?.stringValue, form(text) else { throw .fieldValueNotAllowed(name) }
                continue
            }
            guard let pattern = self.fields[name] else { throw .fieldNotAllowed(name) }
            guard let text = Self.scalarText(fields[name]!), pattern.matches(text) else { throw .fieldValueNotAllowed(name) }
        }
    }

    /// The fields a partition's run adds to each Assembly (``AssemblyParams/tags(batch:partition:)``), allowed in their own forms
    /// unless the policy names them: a batch ID, and `I/N`.
    static let partitionTags: [String: @Sendable (String) -> Bool] = [
        "assemblyline_batch": { BatchID(rawValue: $0) != nil },
        "assemblyline_partition": { Partition(text: $0) != nil },
    ]

    private func notifyURL(_ value: JSONValue?) throws(PolicyRefusal) {
        guard let value, value != .null else { return }
        guard let url = value.stringValue else { throw .malformedParams("expected notify_url to be a string") }
        guard notifyURLs.contains(url) else { throw .notifyURLNotAllowed(url) }
    }

    /// The text a field pattern is matched against: a string's own, a number's or boolean's JSON; nil otherwise.
    private static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case let .string(text): text
        case .integer, .number, .bool: value.serialized
        case .null, .array, .object: nil
        }
    }

    private static func isNonce(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxNonceLength && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
