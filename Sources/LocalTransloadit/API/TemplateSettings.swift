import AssemblyLine
import ConfigFormat
import HTTPServer

/// What a Template creation or edit asks for, read from its signed params: `name`, `template`, `require_signature_auth`.
///
/// The three sit in the params beside `auth` (the docs' "Supported keys inside the params field";
/// node-sdk, go-sdk and ruby-sdk send them there). `template` is the Template JSON as an object (node-sdk,
/// go-sdk) or as a JSON-encoded string (the docs' type, terraform's input); `require_signature_auth` is 0
/// or 1 (the docs), true or false (go-sdk's model). An edit changes only what it names.
struct TemplateSettings: Sendable, Hashable {
    /// The shortest and longest name the docs allow.
    static let nameLengths = 5...40

    var name: String?
    var content: [String: JSONValue]?
    var requireSignatureAuth: Bool?

    /// The settings the params name.
    ///
    /// - Throws: `INVALID_PARAMS_FIELD` (400) for a name that is not 5 to 40 lowercase letters, digits
    ///   and dashes, or a `require_signature_auth` that is not 0, 1, true or false; `INVALID_TEMPLATE_FIELD`
    ///   (400) for a `template` that is not a JSON object, or whose `steps` is not an object or
    ///   `allow_steps_override` not a boolean.
    init(params: [String: JSONValue]) throws(APIError) {
        if let value = params["name"], value != .null {
            guard let name = value.stringValue, Self.isValidName(name) else {
                throw .validation(
                    .invalidParamsField,
                    "name must be \(Self.nameLengths.lowerBound) to \(Self.nameLengths.upperBound) lowercase latin letters, digits and dashes.")
            }
            self.name = name
        }
        switch params["require_signature_auth"] {
        case nil, .null?: break
        case .integer(0)?, .bool(false)?, .string("0")?: requireSignatureAuth = false
        case .integer(1)?, .bool(true)?, .string("1")?: requireSignatureAuth = true
        default: throw .validation(.invalidParamsField, "require_signature_auth must be 0 or 1.")
        }
        if let value = params["template"], value != .null {
            content = try Self.content(value)
        }
    }

    /// Lowercase latin letters, digits and dashes, 5 to 40 of them (the docs name letters and dashes; node-sdk's
    /// live tests create names with digits).
    static func isValidName(_ name: String) -> Bool {
        nameLengths.contains(name.utf8.count) && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// The Template JSON of a `template` member: an object, or a string that encodes one.
    private static func content(_ value: JSONValue) throws(APIError) -> [String: JSONValue] {
        let invalid = { (detail: String) in APIError.validation(.invalidTemplateField, "template \(detail).") }
        let parsed: JSONValue
        if case .string(let text) = value {
            do {
                parsed = try JSONValue(parsing: text)
            } catch {
                throw invalid("is not valid JSON: \(EchoedText.excerpt(error.description))")
            }
        } else {
            parsed = value
        }
        guard let content = parsed.objectValue else { throw invalid("must be a JSON object, such as {\"steps\": {...}}") }
        if let steps = content["steps"], steps.objectValue == nil {
            throw invalid("has steps that are not an object of step names to steps")
        }
        if let allow = content["allow_steps_override"], allow != .bool(true), allow != .bool(false) {
            throw invalid("has an allow_steps_override that is not true or false")
        }
        return content
    }
}
