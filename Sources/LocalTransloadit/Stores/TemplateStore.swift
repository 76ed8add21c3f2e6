import AssemblyLine
import ConfigFormat
import Foundation
import Synchronization

/// Every Template of a data directory: in memory, and in `templates.json`, rewritten atomically before each
/// change takes effect, so that a restart keeps them and a change that cannot be written is refused.
///
/// The Template API creates, edits and deletes them; an Assembly that names one by `template_id` reads
/// its content at that moment, so an edit applies to the next Assembly. The Templates of the service's
/// configuration (``TemplateLibrary``) are put in at each start.
final class TemplateStore: Sendable {
    /// What a listing is sorted by (the `sort` of `GET /templates`); ties go by ID.
    enum Sort: String, Sendable, CaseIterable {
        case id, name, created, modified
    }

    private let path: String
    private let templates: Mutex<[String: ServiceTemplate]>

    /// Reads `templates.json` under `root` (none yet is no Template), then holds each Template of
    /// `configured` as of `now`.
    init(root: String, holding configured: TemplateLibrary, now: Date) throws(LocalServiceError) {
        path = "\(root)/templates.json"
        var loaded: [String: ServiceTemplate] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            do {
                for template in try StoredFormat.decoder.decode([ServiceTemplate].self, from: data) {
                    loaded[template.id] = template
                }
            } catch {
                throw .unreadableState(path: path, reason: "\(error)")
            }
        }
        let before = loaded
        for (id, given) in configured.templates {
            let content = StoredJSON(.object(given.content))
            let name = given.name ?? id
            if var held = loaded[id] {
                guard held.name != name || held.content != content || held.requireSignatureAuth != given.requireSignatureAuth else { continue }
                (held.name, held.content, held.requireSignatureAuth, held.modified) = (name, content, given.requireSignatureAuth, now)
                loaded[id] = held
            } else {
                loaded[id] = ServiceTemplate(
                    id: id, name: name, content: content, requireSignatureAuth: given.requireSignatureAuth,
                    created: now, modified: now)
            }
        }
        if loaded != before {
            do {
                try Self.write(loaded, to: path)
            } catch {
                throw .dataDirectoryUnusable(path: root, reason: FileFailureText.reason(of: error))
            }
        }
        templates = Mutex(loaded)
    }

    /// The Template of that ID, nil when there is none.
    func template(_ id: String) -> ServiceTemplate? {
        templates.withLock { $0[id] }
    }

    /// The Template the params name by `template_id`, nil when they name none.
    ///
    /// - Throws: `NO_TEMPLATE_ID` (400) for a `template_id` that is not a non-empty string,
    ///   `TEMPLATE_NOT_FOUND` (404) for an unknown one.
    func named(by params: [String: JSONValue]) throws(APIError) -> ServiceTemplate? {
        guard let value = params["template_id"], value != .null else { return nil }
        guard let id = value.stringValue, !id.isEmpty else {
            throw .validation(.noTemplateID, "template_id must be a non-empty string.")
        }
        guard let template = template(id) else { throw .templateNotFound(id) }
        return template
    }

    /// True when the params name, by `template_id`, a Template that requires signature auth.
    func requiresSignature(_ params: [String: JSONValue]) -> Bool {
        requiresSignature(id: params["template_id"]?.stringValue)
    }

    /// True when `id` names a Template that requires signature auth.
    func requiresSignature(id: String?) -> Bool {
        id.flatMap(template)?.requireSignatureAuth ?? false
    }

    /// Stores a new Template under a fresh ID.
    func create(name: String, content: [String: JSONValue], requireSignatureAuth: Bool, at now: Date) throws(APIError) -> ServiceTemplate {
        let template = ServiceTemplate(
            id: ServiceID.make(), name: name, content: StoredJSON(.object(content)),
            requireSignatureAuth: requireSignatureAuth, created: now, modified: now)
        try change { $0[template.id] = template }
        return template
    }

    /// Applies `edit` to a Template (its `modified` set to `now` when anything changed); nil when there is none.
    func edit(_ id: String, at now: Date, _ edit: (inout ServiceTemplate) -> Void) throws(APIError) -> ServiceTemplate? {
        try change { templates -> ServiceTemplate? in
            guard var template = templates[id] else { return nil }
            let before = template
            edit(&template)
            if template != before { template.modified = now }
            templates[id] = template
            return template
        }
    }

    /// Records that an Assembly named the Template at `now`.
    func markUsed(_ id: String, at now: Date) throws(APIError) {
        try change { $0[id]?.lastUsed = now }
    }

    /// Deletes a Template; false when there was none.
    func delete(_ id: String) throws(APIError) -> Bool {
        try change { $0.removeValue(forKey: id) != nil }
    }

    /// One page of Templates in the order asked, and how many there are in all.
    func page(sortedBy sort: Sort, ascending: Bool, from start: Int, count: Int) -> (templates: [ServiceTemplate], total: Int) {
        let all = templates.withLock { Array($0.values) }
        let sorted = all.sorted { lhs, rhs in
            let (first, second) = ascending ? (lhs, rhs) : (rhs, lhs)
            switch sort {
            case .id: return first.id < second.id
            case .name: return (first.name, first.id) < (second.name, second.id)
            case .created: return (first.created, first.id) < (second.created, second.id)
            case .modified: return (first.modified, first.id) < (second.modified, second.id)
            }
        }
        return (Array(sorted[min(sorted.count, start)..<min(sorted.count, start + count)]), sorted.count)
    }

    /// Runs `body` on a copy of the Templates, writes the copy when it differs, and only then keeps it.
    private func change<Result>(_ body: (inout [String: ServiceTemplate]) -> Result) throws(APIError) -> Result {
        try templates.withLock { templates throws(APIError) -> Result in
            var changed = templates
            let result = body(&changed)
            guard changed != templates else { return result }
            do {
                try Self.write(changed, to: path)
            } catch {
                throw .internalError("cannot store the Templates: \(FileFailureText.reason(of: error))")
            }
            templates = changed
            return result
        }
    }

    private static func write(_ templates: [String: ServiceTemplate], to path: String) throws {
        try StoredFormat.encoder.encode(templates.values.sorted { $0.id < $1.id }).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
