import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// `POST /assemblies/<id>/replay`: a new Assembly that runs again on the uploads of an earlier one, its parent.
///
/// The body (urlencoded, or multipart without files) carries signed `params`. Their `steps` or
/// `template_id` replace the parent's instructions; without either, `reparse_template` (1 or true)
/// merges the parent's request params under the current content of its Template, as an edit since
/// asks, and otherwise the parent's instructions run again as they were. The answer is the new
/// Assembly's status with `ok: ASSEMBLY_REPLAYING` and `success: true`; clients then poll its
/// `assembly_ssl_url`. The new Assembly has the parent's uploads (the same IDs, fields and names, so
/// results map back to the parent's inputs), received nothing (`bytes_received` 0), and names its
/// parent as `parent_id` and by URL as `parent_assembly_status`. The uploads are hard links (copies where
/// the file system has none) so that either Assembly's files may expire on their own.
///
/// A parent can be replayed once it no longer runs, if it received all its uploads and they are still
/// kept: for its result lifetime (`--result-ttl`, 24 h by default, the docs' 24 hours) after it ended,
/// whether it completed, failed while executing, or was canceled after its uploads arrived.
struct ReplayHandler: Sendable {
    let service: ServiceContext

    func plan(originalID: String, urls: ServiceURLs) -> HTTPRequestPlan {
        .buffer(limit: CreateAssemblyHandler.formLimit) { request, body in
            do throws(APIError) {
                return try replay(originalID, fields: FormBody.fields(of: request, body: body), urls: urls)
            } catch {
                return error.response(urls: urls)
            }
        }
    }

    private func replay(_ originalID: String, fields: [FormField], urls: ServiceURLs) throws(APIError) -> HTTPResponse {
        guard CreateAssemblyHandler.fieldBytes(fields) <= CreateAssemblyHandler.fieldsLimit else {
            throw .fieldsTooLarge(limit: CreateAssemblyHandler.fieldsLimit)
        }
        guard let original = service.store.record(originalID) else { throw .assemblyNotFound(originalID) }
        let params = fields.firstValue(named: "params")
        let now = service.clock.now
        let templates = service.templates
        // Verified first: signed params count as seen even when the creation is then rate-limited.
        let object = try service.verifier.verify(
            params: params, signature: fields.firstValue(named: "signature"), purpose: .create, now: now
        ) { object in
            Self.replacesInstructions(object) ? templates.requiresSignature(object) : templates.requiresSignature(id: original.templateID)
        }
        if let wait = service.creations.admit() { throw .creationsRateLimited(wait: wait) }
        try checkReplayable(original, now: now)
        let replacesInstructions = Self.replacesInstructions(object)
        let reparsesTemplate = try Self.reparsesTemplate(object)
        let instructions: ServiceInstructions
        if replacesInstructions {
            instructions = try ServiceInstructions(params: object, template: templates.named(by: object))
        } else if reparsesTemplate, let templateID = original.templateID {
            guard let template = templates.template(templateID) else { throw .templateNotFound(templateID) }
            let request = original.requestParams?.value.objectValue ?? (try? JSONValue(parsing: original.params))?.objectValue ?? [:]
            instructions = try ServiceInstructions(params: request, template: template)
        } else {
            var previous = original.mergedParams.value.objectValue ?? [:]
            previous["template_id"] = nil
            var rebuilt = try ServiceInstructions(params: previous, template: nil)
            rebuilt.mergedParams = original.mergedParams.value
            rebuilt.requestParams = original.requestParams?.value ?? rebuilt.requestParams
            rebuilt.templateID = original.templateID
            instructions = rebuilt
        }
        if let templateID = instructions.templateID {
            try templates.markUsed(templateID, at: now)
        }
        let id = ServiceID.make()
        guard service.store.reserve(id, at: now) else { throw .internalError("a fresh Assembly ID was taken") }
        let mergedFields = instructions.mergedParams.objectValue?["fields"]?.objectValue.map(JSONValue.object)
        let fieldsJSON = (replacesInstructions ? mergedFields : object["fields"]?.objectValue.map(JSONValue.object))
            ?? original.fields.value
        var record = AssemblyRecord(
            id: id, sequence: service.store.takeSequence(), created: now, params: params ?? "",
            instructions: instructions, fields: fieldsJSON, client: original.client)
        record.parentID = originalID
        record.state = .executing
        record.uploadFinished = record.created
        try copyUploads(of: original, into: &record)
        try service.store.insert(record)
        service.queue.enqueue(id)
        guard case .object(var members) = ServiceAssemblyStatus(record: record, urls: urls, now: now).json else {
            throw .internalError("the status is not an object")
        }
        members["ok"] = ServiceAssemblyState.replaying.okCode
        members["message"] = .string(ServiceAssemblyState.replaying.message)
        members["success"] = .bool(true)
        members["notify_url"] = object["notify_url"] ?? .null
        return .json(JSONValue.object(members).serialized)
    }

    /// Refuses a parent that still runs, never received all its uploads, or whose uploads are gone.
    private func checkReplayable(_ original: AssemblyRecord, now: Date) throws(APIError) {
        let subject = "The Assembly \(original.id)"
        let reason: String
        if original.state.isRunning {
            reason = "\(subject) is still running; replay it once it has ended."
        } else if original.state == .aborted || !original.uploadsComplete {
            reason = "\(subject) never received all its uploads."
        } else if let expires = service.filesExpire(original), now >= expires {
            reason = "\(subject)'s uploads are past their lifetime and were deleted."
        } else if original.uploads.contains(where: { !FileManager.default.fileExists(atPath: service.store.absolute($0.storedPath)) }) {
            reason = "\(subject)'s uploads are no longer kept."
        } else {
            return
        }
        throw APIError(.assemblyCannotBeReplayed, status: 400, reason).about(original.id)
    }

    /// Whether the params bring instructions of their own (`steps` or `template_id`) in place of the parent's.
    ///
    /// An empty `steps` object brings none: go-sdk's `StartAssemblyReplay` sends `steps: {}` whenever no step was added.
    private static func replacesInstructions(_ params: [String: JSONValue]) -> Bool {
        let steps = params["steps"] ?? .null
        return (steps != .null && steps != .object([:])) || (params["template_id"] ?? .null) != .null
    }

    /// Whether the params ask to merge the parent's Template again: `reparse_template` 1 or true (node-sdk's schema
    /// takes 0 or 1); absent, 0 or false is no.
    ///
    /// - Throws: `INVALID_PARAMS_FIELD` (400) for any other value.
    private static func reparsesTemplate(_ params: [String: JSONValue]) throws(APIError) -> Bool {
        switch params["reparse_template"] {
        case nil, .null?, .integer(0)?, .bool(false)?, .string("0")?: return false
        case .integer(1)?, .bool(true)?, .string("1")?: return true
        default: throw .validation(.invalidParamsField, "reparse_template must be 0 or 1.")
        }
    }

    /// Gives `record` the parent's uploads, the same IDs and names, its files linked (or copied) into the new Assembly.
    private func copyUploads(of original: AssemblyRecord, into record: inout AssemblyRecord) throws(APIError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: "\(service.store.directory(of: record.id))/files", withIntermediateDirectories: true)
            for upload in original.uploads {
                var copy = upload
                copy.assemblyID = record.id
                copy.storedPath = service.store.storedPath(assembly: record.id, file: upload.id)
                let source = service.store.absolute(upload.storedPath), target = service.store.absolute(copy.storedPath)
                if (try? manager.linkItem(atPath: source, toPath: target)) == nil {
                    try manager.copyItem(atPath: source, toPath: target)
                }
                record.uploads.append(copy)
            }
        } catch {
            try? manager.removeItem(atPath: service.store.directory(of: record.id))
            service.store.release(record.id)
            throw .internalError("cannot copy the uploads: \(FileFailureText.reason(of: error))")
        }
    }
}
