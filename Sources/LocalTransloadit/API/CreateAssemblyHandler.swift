import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// `POST /assemblies` and `POST /assemblies/<id>`: admits, authorizes and stores a new Assembly.
///
/// Admission happens when the headers arrive (ID reservation), authorization as soon as the
/// `params` field is known (at the first file part, or at the end of the body; the signature,
/// then the rate limit, then the instructions), and the
/// Assembly is stored once the whole body is in. A body cut off after a successful authorization
/// leaves an Assembly in `REQUEST_ABORTED`; one cut off earlier leaves nothing.
struct CreateAssemblyHandler: Sendable {
    let service: ServiceContext

    /// What is known of a creation before its body.
    struct Admission: Sendable {
        var id: String
        var client: String?
        var started: Date
        /// The URLs its answers name, as the client reached the service.
        var urls: ServiceURLs
    }

    /// A creation whose params were accepted.
    struct Authorization: Sendable {
        var params: String
        var instructions: ServiceInstructions
        var fields: JSONValue
        var expectedTusUploads: Int
    }

    /// The most bytes of form fields (names and values, params included) one Assembly keeps:
    /// every field is stored with the Assembly and echoed in each status answer.
    static let fieldsLimit = 256 << 10
    /// The largest urlencoded creation body (percent-encoding may triple the fields' bytes).
    static let formLimit = 3 * fieldsLimit
    /// The multipart bounds of a creation: one field may use the whole fields budget, no more.
    static let multipartLimits = MultipartParser.Limits(maxFieldBytes: fieldsLimit)

    /// The most tus uploads one Assembly may expect (as many as a multipart body may carry parts).
    static let maxExpectedUploads = MultipartParser.Limits().maxParts

    /// The bytes `fields` count against ``fieldsLimit``.
    static func fieldBytes(_ fields: [FormField]) -> Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    func plan(for request: HTTPRequest, chosenID: String?, urls: ServiceURLs) -> HTTPRequestPlan {
        let id = chosenID ?? ServiceID.make()
        let now = service.clock.now
        guard service.store.reserve(id, expecting: request.contentLength.map(Int64.init), at: now) else {
            let error = APIError(
                .doNotReuseAssemblyIDs, status: 409,
                "An Assembly with the ID \(id) exists already; choose a new ID for each Assembly.")
            return .respond(error.about(id).response(urls: urls))
        }
        let admission = Admission(id: id, client: request.headers["Transloadit-Client"], started: now, urls: urls)
        var multipart: (parser: MultipartParser, collector: UploadCollector)?
        if request.contentType?.essence == "multipart/form-data" {
            do {
                let parser = try MultipartParser(contentType: request.headers["Content-Type"] ?? "", limits: Self.multipartLimits)
                let collector = UploadCollector(
                    directory: service.store.temporaryDirectory, prefix: id,
                    fieldBudget: Self.fieldsLimit - Self.fieldBytes(request.query))
                multipart = (parser, collector)
            } catch {
                service.store.release(id)
                return .respond(APIError.invalidForm(error.description).about(id).response(urls: urls))
            }
        }
        return .stream(CreateAssemblySink(handler: self, admission: admission, query: request.query, multipart: multipart))
    }

    /// Checks the fields of a creating request: auth, instructions (with the current content of the Template
    /// they name, whose `last_used` is then now), the expected tus uploads.
    func authorize(_ fields: [FormField]) throws(APIError) -> Authorization {
        let params = fields.firstValue(named: "params")
        let now = service.clock.now
        let templates = service.templates
        let object = try service.verifier.verify(
            params: params, signature: fields.firstValue(named: "signature"), purpose: .create, now: now,
            signedIf: { templates.requiresSignature($0) })
        // After the signature check, as production checks it as soon as the request arrives: signed
        // params count as seen even when the creation is then rate-limited.
        if let wait = service.creations.admit() { throw .creationsRateLimited(wait: wait) }
        let template = try templates.named(by: object)
        let instructions = try ServiceInstructions(params: object, template: template)
        if let template { try templates.markUsed(template.id, at: now) }
        var expected = 0
        if let text = fields.firstValue(named: "tus_num_expected_upload_files") ?? fields.firstValue(named: "num_expected_upload_files") {
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), (0...Self.maxExpectedUploads).contains(count) else {
                throw .validation(
                    .assemblyInvalidNumExpectedUploadFilesParam,
                    "tus_num_expected_upload_files must be a whole number from 0 to \(Self.maxExpectedUploads), found '\(EchoedText.excerpt(text))'.")
            }
            expected = count
        }
        return Authorization(
            params: params ?? "", instructions: instructions, fields: Self.fields(instructions, form: fields),
            expectedTusUploads: expected)
    }

    /// The Assembly's `fields`: those of the merged params, with the form's extra fields over them.
    static func fields(_ instructions: ServiceInstructions, form: [FormField]) -> JSONValue {
        var merged = instructions.mergedParams.objectValue?["fields"]?.objectValue ?? [:]
        let reserved: Set = ["params", "signature", "tus_num_expected_upload_files", "num_expected_upload_files"]
        for field in form where !reserved.contains(field.name) {
            merged[field.name] = .string(field.value)
        }
        return .object(merged)
    }

    /// Stores the Assembly with its uploads and queues it when nothing more is expected; returns its status.
    func complete(_ admission: Admission, _ authorization: Authorization, files: [StagedFile], bodyBytes: Int64) -> HTTPResponse {
        let store = service.store
        var record = AssemblyRecord(
            id: admission.id, sequence: store.takeSequence(), created: admission.started, params: authorization.params,
            instructions: authorization.instructions, fields: authorization.fields, client: admission.client)
        record.expectedTusUploads = authorization.expectedTusUploads
        record.bytesExpected = bodyBytes
        record.bytesReceived = bodyBytes
        do {
            try FileManager.default.createDirectory(atPath: "\(store.directory(of: admission.id))/files", withIntermediateDirectories: true)
            for staged in files {
                record.uploads.append(try place(staged, assembly: admission.id))
            }
        } catch {
            files.forEach { unlink($0.temporaryPath) }
            try? FileManager.default.removeItem(atPath: store.directory(of: admission.id))
            store.release(admission.id)
            return APIError.internalError("cannot store the uploads: \(FileFailureText.reason(of: error))").about(admission.id).response(urls: admission.urls)
        }
        let now = service.clock.now
        if record.uploadsComplete {
            record.state = .executing
            record.uploadFinished = now
        }
        do {
            try store.insert(record)
        } catch {
            return error.about(admission.id).response(urls: admission.urls)
        }
        if record.state == .executing {
            service.queue.enqueue(record.id)
        }
        return .json(ServiceAssemblyStatus(record: record, urls: admission.urls, now: now).json.serialized)
    }

    /// A creating body that will not complete: temporary files go; an authorized Assembly is kept as `REQUEST_ABORTED`.
    func abort(_ admission: Admission, _ authorization: Authorization?, bodyBytes: Int64) {
        guard let authorization else {
            service.store.release(admission.id)
            return
        }
        var record = AssemblyRecord(
            id: admission.id, sequence: service.store.takeSequence(), created: admission.started,
            params: authorization.params, instructions: authorization.instructions, fields: authorization.fields,
            client: admission.client)
        record.state = .aborted
        record.bytesReceived = bodyBytes
        record.executionEnd = service.clock.now
        try? service.store.insert(record)
    }

    /// Moves a staged file into the Assembly and describes it as an upload.
    private func place(_ staged: StagedFile, assembly: String) throws -> ServiceAssemblyFile {
        let fileID = ServiceID.make()
        let storedPath = service.store.storedPath(assembly: assembly, file: fileID)
        try FileManager.default.moveItem(atPath: staged.temporaryPath, toPath: service.store.absolute(storedPath))
        let name = Self.baseName(staged.filename)
        let (basename, ext) = ServiceAssemblyFile.split(name: name)
        let mime = ServiceAssemblyFile.mime(declared: staged.contentType, name: name)
        return ServiceAssemblyFile(
            id: fileID, assemblyID: assembly, name: name, basename: basename, ext: ext, size: staged.size, mime: mime,
            field: staged.field, md5hash: staged.md5hash, originalID: fileID, originalName: name, originalBasename: basename,
            originalMD5: staged.md5hash, isTusFile: false, userMeta: [:], storedPath: storedPath)
    }

    /// The last component of a client's file name (some send a whole path, with either slash).
    static func baseName(_ filename: String) -> String {
        let last = filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return last.isEmpty ? "file" : last
    }
}
