import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import HTTPServer

/// tus 1.0.0 under `/resumable/files/`: OPTIONS, creation (POST), HEAD, PATCH and termination (DELETE).
///
/// An upload joins its Assembly through the `assembly_url` metadata (the trailing ID is matched,
/// so the http and https forms both work); `fieldname` and `filename` become the upload's
/// `field` and `name`, other keys its `user_meta`. Uploads beyond the Assembly's expected count
/// are accepted and dropped. When the last expected upload finishes the Assembly executes.
/// Every answer carries `Tus-Resumable: 1.0.0`.
struct TusHandler: Sendable {
    let service: ServiceContext

    static let version = "1.0.0"
    static let extensions = "creation,termination,checksum"
    static let patchContentType = "application/offset+octet-stream"
    /// The tus header fields that carry one value each; a request repeating one is refused.
    static let singletonHeaders: Set<String> = [
        "Tus-Resumable", "Upload-Offset", "Upload-Length", "Upload-Metadata", "Upload-Checksum", "X-HTTP-Method-Override",
    ]

    /// OPTIONS: what the server supports.
    func options() -> HTTPResponse {
        var response = Self.answer(204)
        response.headers.set("Tus-Version", Self.version)
        response.headers.set("Tus-Extension", Self.extensions)
        response.headers.set("Tus-Checksum-Algorithm", "sha1")
        response.headers.set("Tus-Max-Size", String(service.maxUploadSize))
        return response
    }

    /// POST: a new upload of `Upload-Length` bytes for the Assembly named in the metadata.
    func create(_ request: HTTPRequest, urls: ServiceURLs) -> HTTPResponse {
        if let refusal = Self.versionRefusal(request) { return refusal }
        guard let lengthText = request.headers["Upload-Length"] else {
            return Self.answer(400, "Upload-Length is required (deferred lengths are not supported)")
        }
        guard let length = Int64(lengthText), length >= 0 else { return Self.answer(400, "Upload-Length must be a whole number") }
        guard length <= service.maxUploadSize else { return Self.answer(413, "Upload-Length is over Tus-Max-Size") }
        guard let metadata = TusMetadata.parse(request.headers["Upload-Metadata"] ?? "") else {
            return Self.answer(400, "Upload-Metadata is malformed")
        }
        guard let assemblyID = metadata["assembly_url"].flatMap(ServiceURLs.assemblyID(inURL:)) else {
            return Self.answer(400, "Upload-Metadata needs assembly_url naming an Assembly")
        }
        let id = ServiceID.make()
        let filename = CreateAssemblyHandler.baseName(metadata["filename"] ?? "file")
        let fieldname = metadata["fieldname"] ?? "file"
        let userMeta = metadata.filter { !TusMetadata.reservedKeys.contains($0.key) }
        let entry = TusUploadEntry(id: id, filename: filename, fieldname: fieldname, size: length, offset: 0, finished: false, userMeta: userMeta)
        // Joins the Assembly, or says why not; `ignored` when all expected uploads have started.
        let joined = service.store.update(assemblyID) { record -> Bool? in
            guard record.state == .uploading else { return nil }
            guard record.tusUploads.count < record.expectedTusUploads else { return true }
            record.tusUploads.append(entry)
            record.bytesExpected += length
            return false
        }
        guard let joined else { return Self.answer(404, "no Assembly \(assemblyID)") }
        guard let ignored = joined else { return Self.answer(400, "the Assembly \(assemblyID) is not uploading") }
        let upload = TusUpload(
            id: id, assemblyID: assemblyID, fieldname: fieldname, filename: filename, userMeta: userMeta,
            length: length, created: service.clock.now, ignored: ignored, finished: false)
        do {
            try service.tus.create(upload)
        } catch {
            return Self.answer(500, error.message)
        }
        if length == 0 {
            complete(upload)
        }
        var response = Self.answer(201)
        response.headers.set("Location", urls.tusUpload(id))
        response.headers.set("Upload-Offset", "0")
        return response
    }

    /// HEAD: the upload's offset and length.
    func head(_ id: String) -> HTTPResponse {
        guard let (upload, offset) = service.tus.upload(id) else { return Self.answer(404) }
        var response = Self.answer(200)
        response.headers.set("Upload-Offset", String(offset))
        response.headers.set("Upload-Length", String(upload.length))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// PATCH: appends the body at `Upload-Offset`, checked against `Upload-Checksum` when sent.
    func patch(_ request: HTTPRequest, id: String) -> HTTPRequestPlan {
        if let refusal = Self.versionRefusal(request) { return .respond(refusal) }
        guard request.contentType?.essence == Self.patchContentType else {
            return .respond(Self.answer(415, "Content-Type must be \(Self.patchContentType)"))
        }
        guard let offset = request.headers["Upload-Offset"].flatMap({ Int64($0) }), offset >= 0 else {
            return .respond(Self.answer(400, "Upload-Offset is required"))
        }
        var checksum: [UInt8]?
        if let header = request.headers["Upload-Checksum"] {
            let parts = header.split(separator: " ")
            guard parts.count == 2, parts[0] == "sha1" else { return .respond(Self.answer(400, "only sha1 checksums are supported")) }
            guard let digest = Data(base64Encoded: String(parts[1])), digest.count == 20 else {
                return .respond(Self.answer(400, "Upload-Checksum is not base64 of a SHA-1 digest"))
            }
            checksum = Array(digest)
        }
        guard let (upload, _) = service.tus.upload(id) else { return .respond(Self.answer(404)) }
        if let record = service.store.record(upload.assemblyID), record.state == .canceled || record.state == .aborted {
            return .respond(Self.answer(410, "the Assembly was canceled"))
        }
        switch service.tus.claim(id, at: offset) {
        case .notFound:
            return .respond(Self.answer(404))
        case .locked:
            return .respond(Self.answer(423, "another PATCH is writing this upload"))
        case .conflict(let current):
            var response = Self.answer(409, "Upload-Offset is \(current)")
            response.headers.set("Upload-Offset", String(current))
            return .respond(response)
        case let .claimed(upload, md5):
            // 0 ≤ offset ≤ length once claimed, so the room left cannot overflow, whatever Content-Length says.
            if let length = request.contentLength, length > UInt64(upload.length - offset) {
                service.tus.release(id, offset: offset, md5: nil)
                return .respond(Self.answer(413, "the body goes past Upload-Length"))
            }
            do {
                return .stream(try TusPatchSink(handler: self, upload: upload, offset: offset, checksum: checksum, md5: md5))
            } catch {
                service.tus.release(id, offset: offset, md5: nil)
                return .respond(Self.answer(500, error.description))
            }
        }
    }

    /// DELETE: terminates an upload; an unfinished one leaves its Assembly's expectations.
    func terminate(_ request: HTTPRequest, id: String) -> HTTPResponse {
        if let refusal = Self.versionRefusal(request) { return refusal }
        guard let (upload, _) = service.tus.upload(id) else { return Self.answer(404) }
        if !upload.finished && !upload.ignored {
            service.store.update(upload.assemblyID) { record in
                if let index = record.tusUploads.firstIndex(where: { $0.id == id }) {
                    record.bytesExpected -= record.tusUploads[index].size
                    record.tusUploads.remove(at: index)
                }
            }
        }
        service.tus.remove(id)
        return Self.answer(204)
    }

    /// Moves a finished upload into its Assembly and starts the Assembly when it was the last one.
    func complete(_ upload: TusUpload) {
        let store = service.store
        defer { service.tus.markFinished(upload.id) }
        let data = service.tus.dataPath(upload.id)
        guard !upload.ignored, store.record(upload.assemblyID)?.state == .uploading else {
            unlink(data)
            return
        }
        let fileID = ServiceID.make()
        let storedPath = store.storedPath(assembly: upload.assemblyID, file: fileID)
        let md5: String
        do {
            try FileManager.default.moveItem(atPath: data, toPath: store.absolute(storedPath))
            md5 = try service.tus.takeMD5(upload.id) ?? Hex.encode(Digest.hashFile(.md5, path: store.absolute(storedPath)))
        } catch {
            service.log("error: cannot store tus upload \(upload.id): \(error)")
            return
        }
        let (basename, ext) = ServiceAssemblyFile.split(name: upload.filename)
        let mime = upload.userMeta["filetype"].flatMap(MediaType.init(parsing:))?.essence ?? MediaType.forPath(upload.filename)
        let file = ServiceAssemblyFile(
            id: fileID, assemblyID: upload.assemblyID, name: upload.filename, basename: basename, ext: ext,
            size: upload.length, mime: mime, field: upload.fieldname, md5hash: md5, originalID: fileID,
            originalName: upload.filename, originalBasename: basename, originalMD5: md5, isTusFile: true,
            tusUploadID: upload.id, userMeta: upload.userMeta, storedPath: storedPath)
        let outcome = store.update(upload.assemblyID) { record -> Bool? in
            guard record.state == .uploading else { return nil }
            record.uploads.append(file)
            record.bytesReceived += upload.length
            if let index = record.tusUploads.firstIndex(where: { $0.id == upload.id }) {
                record.tusUploads[index].finished = true
                record.tusUploads[index].offset = upload.length
            }
            guard record.uploadsComplete else { return false }
            record.state = .executing
            record.uploadFinished = service.clock.now
            return true
        }
        switch outcome {
        case .some(.some(true)): service.queue.enqueue(upload.assemblyID)
        case .some(.some(false)): break
        default: unlink(store.absolute(storedPath))
        }
    }

    /// A tus answer: the status, `Tus-Resumable`, and an optional plain-text explanation.
    static func answer(_ status: Int, _ text: String? = nil) -> HTTPResponse {
        var response = text.map { HTTPResponse.text($0 + "\n", status: status) } ?? .empty(status: status)
        response.headers.set("Tus-Resumable", version)
        return response
    }

    /// 412 with `Tus-Version` for a request that speaks another tus version.
    private static func versionRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard let version = request.headers["Tus-Resumable"], version != Self.version else { return nil }
        var response = answer(412, "Tus-Resumable \(EchoedText.excerpt(version)) is not supported")
        response.headers.set("Tus-Version", Self.version)
        return response
    }
}
