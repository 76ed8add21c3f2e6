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
                return try replay(originalID, fields: request.query + Self.fields(of: request, body: body), urls: urls)
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
        // Verified first: signed params count as seen even when the creation is then rate-limited.
        let now = service.clock.now
        let object = try service.verifier.verify(
            params: params, signature: fields.firstValue(named: "signature"), purpose: .create, now: now)
        if let wait = service.creations.admit() { throw .creationsRateLimited(wait: wait) }
        let manager = FileManager.default
        let filesGone = original.uploads.contains { !manager.fileExists(atPath: service.store.absolute($0.storedPath)) }
        guard !original.state.isRunning, !filesGone else {
            throw APIError(
                .assemblyCannotBeReplayed, status: 400,
                "The Assembly \(EchoedText.excerpt(originalID)) is still running or its files have expired.").about(originalID)
        }
        let instructions: ServiceInstructions
        if object["steps"] != nil || object["template_id"] != nil {
            instructions = try ServiceInstructions(params: object, templates: service.templates)
        } else {
            var previous = original.mergedParams.value.objectValue ?? [:]
            previous["template_id"] = nil
            var rebuilt = try ServiceInstructions(params: previous, templates: .empty)
            rebuilt.mergedParams = original.mergedParams.value
            rebuilt.templateID = original.templateID
            instructions = rebuilt
        }
        let id = ServiceID.make()
        guard service.store.reserve(id, at: now) else { throw .internalError("a fresh Assembly ID was taken") }
        let replacesInstructions = object["steps"] != nil || object["template_id"] != nil
        let mergedFields = instructions.mergedParams.objectValue?["fields"]?.objectValue.map(JSONValue.object)
        let fieldsJSON = (replacesInstructions ? mergedFields : object["fields"]?.objectValue.map(JSONValue.object))
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

    /// The fields of a replay body: urlencoded, or the non-file parts of a multipart form.
    private static func fields(of request: HTTPRequest, body: [UInt8]) throws(APIError) -> [FormField] {
        guard request.contentType?.essence == "multipart/form-data" else { return FormURLDecoder.decode(body) }
        do {
            var parser = try MultipartParser(
                contentType: request.headers["Content-Type"] ?? "", limits: CreateAssemblyHandler.multipartLimits)
            var collector = FieldCollector()
            try body.withUnsafeBytes { try parser.feed($0, into: &collector) }
            try parser.finish()
            return collector.fields
        } catch {
            throw .invalidForm("\(error)")
        }
    }

    /// Keeps the fields of a multipart body and skips its files.
    private struct FieldCollector: MultipartSink {
        var fields: [FormField] = []

        mutating func receiveField(_ field: FormField, part: MultipartPart) throws {
            fields.append(field)
        }

        mutating func beginFile(_ part: MultipartPart) throws {}
        mutating func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws {}
        mutating func endFile() throws {}
    }
}
