import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// `POST /assemblies/<id>/replay`: a new Assembly that runs again on the uploads of an earlier one.
///
/// The body (urlencoded, or multipart without files) carries signed `params`; their `steps` or
/// `template_id` replace the original instructions, and without either the original ones run
/// again. The answer is the new Assembly's status with `ok: ASSEMBLY_REPLAYING` and `success: true`;
/// clients then poll its `assembly_ssl_url`. The uploads are hard links (copies where the file
/// system has none) so that either Assembly's files may expire on their own.
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
        let replacesInstructions = { (object: [String: JSONValue]) in object["steps"] != nil || object["template_id"] != nil }
        // Verified first: signed params count as seen even when the creation is then rate-limited.
        let object = try service.verifier.verify(
            params: params, signature: fields.firstValue(named: "signature"), purpose: .create, now: now
        ) { object in
            replacesInstructions(object) ? templates.requiresSignature(object) : templates.requiresSignature(id: original.templateID)
        }
        if let wait = service.creations.admit() { throw .creationsRateLimited(wait: wait) }
        let manager = FileManager.default
        let filesGone = original.uploads.contains { !manager.fileExists(atPath: service.store.absolute($0.storedPath)) }
        guard !original.state.isRunning, !filesGone else {
            throw APIError(
                .assemblyCannotBeReplayed, status: 400,
                "The Assembly \(EchoedText.excerpt(originalID)) is still running or its files have expired.").about(originalID)
        }
        let instructions: ServiceInstructions
        if replacesInstructions(object) {
            instructions = try ServiceInstructions(params: object, template: templates.named(by: object))
        } else {
            var previous = original.mergedParams.value.objectValue ?? [:]
            previous["template_id"] = nil
            var rebuilt = try ServiceInstructions(params: previous, template: nil)
            rebuilt.mergedParams = original.mergedParams.value
            rebuilt.templateID = original.templateID
            instructions = rebuilt
        }
        if let templateID = instructions.templateID {
            try templates.markUsed(templateID, at: now)
        }
        let id = ServiceID.make()
        guard service.store.reserve(id, at: now) else { throw .internalError("a fresh Assembly ID was taken") }
        let mergedFields = instructions.mergedParams.objectValue?["fields"]?.objectValue.map(JSONValue.object)
        let fieldsJSON = (replacesInstructions(object) ? mergedFields : object["fields"]?.objectValue.map(JSONValue.object))
            ?? original.fields.value
        var record = AssemblyRecord(
            id: id, sequence: service.store.takeSequence(), created: now, params: params ?? "",
            instructions: instructions, fields: fieldsJSON, client: original.client)
        record.replayOf = originalID
        record.state = .executing
        record.uploadFinished = record.created
        record.bytesReceived = original.bytesReceived
        record.bytesExpected = original.bytesExpected
        do {
            try manager.createDirectory(atPath: "\(service.store.directory(of: id))/files", withIntermediateDirectories: true)
            for upload in original.uploads {
                var copy = upload
                copy.assemblyID = id
                copy.storedPath = service.store.storedPath(assembly: id, file: upload.id)
                let source = service.store.absolute(upload.storedPath), target = service.store.absolute(copy.storedPath)
                if (try? manager.linkItem(atPath: source, toPath: target)) == nil {
                    try manager.copyItem(atPath: source, toPath: target)
                }
                record.uploads.append(copy)
            }
        } catch {
            try? manager.removeItem(atPath: service.store.directory(of: id))
            service.store.release(id)
            throw .internalError("cannot copy the uploads: \(FileFailureText.reason(of: error))")
        }
        try service.store.insert(record)
        service.queue.enqueue(id)
        guard case .object(var members) = ServiceAssemblyStatus(record: record, urls: urls, now: now).json else {
            throw .internalError("the status is not an object")
        }
        members["ok"] = ServiceAssemblyState.replaying.okCode
        members["success"] = .bool(true)
        members["notify_url"] = object["notify_url"] ?? .null
        return .json(JSONValue.object(members).serialized)
    }
}
