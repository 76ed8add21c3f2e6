import Digests
import HTTPMessages
import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

/// A tus PATCH body written straight to the upload's data file, never held in memory.
///
/// Without a checksum, the bytes of a PATCH cut off midway are kept (the client HEADs and goes
/// on from there, as tus intends). With `Upload-Checksum`, a chunk counts only when its SHA-1
/// matches: a mismatch (460) or a cut-off chunk is cut from the file again. A PATCH whose last
/// byte arrived completes the upload even when the answer cannot be sent.
final class TusPatchSink: HTTPBodySink {
    private let handler: TusHandler
    private let upload: TusUpload
    private let offset: Int64
    private let checksum: [UInt8]?
    private let writer: FileWriter
    /// The upload's MD5 so far (a copy), fed with this PATCH's bytes; nil when unknown (after a restart).
    private let md5: RunningDigest?

    init(handler: TusHandler, upload: TusUpload, offset: Int64, checksum: [UInt8]?, md5: RunningDigest?) throws(FileWriter.WriteError) {
        self.handler = handler
        self.upload = upload
        self.offset = offset
        self.checksum = checksum
        self.md5 = md5
        self.writer = try FileWriter(
            path: handler.service.tus.dataPath(upload.id), appendingAt: offset, hashing: checksum == nil ? nil : .sha1)
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        guard Int64(chunk.count) <= upload.length - offset - writer.written else {
            rollBack()
            throw HTTPRejection(TusHandler.answer(413, "the body goes past Upload-Length \(upload.length)"))
        }
        do {
            try writer.write(chunk)
            md5?.update(chunk)
        } catch {
            rollBack()
            throw HTTPRejection(TusHandler.answer(500, error.description))
        }
    }

    func finish() -> HTTPResponse {
        let digest: [UInt8]
        do {
            digest = try writer.finish()
        } catch {
            rollBack()
            return TusHandler.answer(500, error.description)
        }
        if let checksum, digest != checksum {
            rollBack()
            return TusHandler.answer(460, "Upload-Checksum does not match the body")
        }
        let reached = offset + writer.written
        handler.service.tus.release(upload.id, offset: reached, md5: md5)
        if reached == upload.length {
            handler.complete(upload)
        }
        var response = TusHandler.answer(204)
        response.headers.set("Upload-Offset", String(reached))
        return response
    }

    func abort(_ reason: HTTPAbortReason) {
        let digest = (try? writer.finish()) ?? []
        if let checksum, digest != checksum {
            rollBack()
            return
        }
        let reached = offset + writer.written
        handler.service.tus.release(upload.id, offset: reached, md5: md5)
        if reached == upload.length {
            // every byte arrived, only the answer was lost
            handler.complete(upload)
        }
    }

    /// Cuts the file back to where this PATCH started and frees the upload.
    private func rollBack() {
        _ = try? writer.finish()
        truncate(writer.path, off_t(offset))
        handler.service.tus.release(upload.id, offset: offset, md5: nil)
    }
}
