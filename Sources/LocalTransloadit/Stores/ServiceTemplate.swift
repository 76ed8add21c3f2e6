import AssemblyLine
import ConfigFormat
import Foundation

/// One Template the service holds: its ID, name, content and signature setting, and its times.
///
/// The content is the Template JSON as it was given (`steps`, `allow_steps_override`, `fields`,
/// `notify_url`...), answered back unchanged as `content`. An Assembly that names the Template gets
/// the content merged under its own params: request values win, a request value of `null` keeps the
/// Template's, and `allow_steps_override: false` refuses a request that also sends `steps`
/// (transloadit-api.md §6.3; node-sdk `templateMerge.ts`).
struct ServiceTemplate: Codable, Sendable, Hashable {
    var id: String
    var name: String
    /// The Template JSON, an object.
    var content: StoredJSON
    /// True refuses an Assembly that names the Template without a valid signature (`require_signature_auth: 1`).
    var requireSignatureAuth: Bool
    var created: Date
    /// When its name, content or signature setting last changed.
    var modified: Date
    /// When an Assembly last named it; nil until one does.
    var lastUsed: Date?

    /// The content's members.
    var contentMembers: [String: JSONValue] { content.value.objectValue ?? [:] }

    /// False when the content sets `allow_steps_override: false`; unset means true.
    var allowsStepsOverride: Bool { contentMembers["allow_steps_override"] != .bool(false) }

    /// A request's params with the content merged under them, `allow_steps_override` left out.
    ///
    /// - Throws: `TEMPLATE_DENIES_STEPS_OVERRIDE` (400) when the Template forbids the `steps` the request sends.
    func merged(under params: [String: JSONValue]) throws(APIError) -> [String: JSONValue] {
        if !allowsStepsOverride, let steps = params["steps"], steps != .null {
            throw .validation(
                .templateDeniesStepsOverride,
                "The Template \(id) does not allow steps to be overridden: template_id and steps are mutually exclusive.")
        }
        var base = contentMembers
        base["allow_steps_override"] = nil
        var request = params
        request["allow_steps_override"] = nil
        return Self.deepMerge(base, under: request)
    }

    /// `base` with `overlay` merged over it: objects merge key by key, anything else in `overlay` replaces, `null` keeps `base`.
    static func deepMerge(_ base: [String: JSONValue], under overlay: [String: JSONValue]) -> [String: JSONValue] {
        var merged = base
        for (key, value) in overlay {
            switch (merged[key], value) {
            case (_, .null) where merged[key] != nil:
                continue
            case (.object(let lower)?, .object(let upper)):
                merged[key] = .object(deepMerge(lower, under: upper))
            default:
                merged[key] = value
            }
        }
        return merged
    }

    /// The Template as the API answers it (node-sdk `apiTypes.ts`, `ListedTemplate`; go-sdk `template.go`):
    /// `id`, `name`, `content`, `require_signature_auth` as 0 or 1, and `created`, `modified`, `last_used`
    /// in ISO 8601 (`last_used` null until an Assembly names it).
    var json: [String: JSONValue] {
        [
            "id": .string(id), "name": .string(name), "content": content.value,
            "require_signature_auth": .integer(requireSignatureAuth ? 1 : 0),
            "created": .string(UTCDateTime(created).iso8601Text), "modified": .string(UTCDateTime(modified).iso8601Text),
            "last_used": lastUsed.map { .string(UTCDateTime($0).iso8601Text) } ?? .null,
        ]
    }
}
