import ConfigFormat

extension SigningPolicy {
    /// A Template read, `auth` alone or a list: signed unless `template_api: none`, for every Template alike.
    ///
    /// The path names the Template and is not signed, so no read can be allowed for one
    /// Template and not for another, nor told from a delete (`DELETE /templates/{id}`).
    func templateRead(_ members: [String: JSONValue]) throws(PolicyRefusal) {
        guard templateAccess != .denied else { throw .templateReadNotAllowed }
        for key in TemplateListKey.allCases {
            if let value = members[key.rawValue], !key.accepts(value) {
                throw .malformedParams("expected \(key.rawValue) to be \(key.expected)")
            }
        }
    }

    /// A Template write: only with `template_api: write`, keeping signature auth, with content the policy would sign as `steps`.
    ///
    /// The path names the Template and is not signed, so a write may land on any Template, one
    /// of ``templates`` included: its content is held to the allowed Step sets, so that a
    /// Template written through this service runs only what the policy would sign as request
    /// Steps, and only for signed requests.
    func templateWrite(_ members: [String: JSONValue]) throws(PolicyRefusal) {
        guard templateAccess == .write else { throw .templateWriteNotAllowed(templateAccess) }
        switch members["require_signature_auth"] {
        case .integer(1)?: break
        case nil, .integer(0)?: throw .signatureAuthRequired
        default: throw .malformedParams("expected require_signature_auth to be 0 or 1")
        }
        if let name = members["name"], name.stringValue?.isEmpty != false {
            throw .malformedParams("expected name to be a non-empty string")
        }
        if let template = members["template"] {
            try templateContent(template)
        }
    }

    /// The written Template's content, an object or its JSON text: allowed `steps`, and `allow_steps_override`.
    private func templateContent(_ value: JSONValue) throws(PolicyRefusal) {
        let expected = "expected template to be an object with steps, or its JSON text"
        var content = value.objectValue
        if let text = value.stringValue {
            do {
                content = try JSONValue(parsing: text).objectValue
            } catch {
                throw .malformedParams("template is not strict JSON: \(error)")
            }
        }
        guard let content else { throw .malformedParams(expected) }
        try ParamsKeyPlace.templateContent.check(content.keys)
        switch content["allow_steps_override"] {
        case nil, .bool?: break
        default: throw .malformedParams("expected template.allow_steps_override to be true or false")
        }
        guard let steps = content["steps"], steps.objectValue != nil else {
            throw .malformedParams("expected template.steps to be an object of Steps")
        }
        if let difference = StepsMatcher(allowed: self.steps).difference(steps) { throw .templateContentNotAllowed(difference) }
    }
}
