import AssemblyLine
import Foundation
import HTTPServer

/// `GET /files/<assembly>/<file>/<name>`: an upload's or a result's bytes, streamed from disk, for the result lifetime.
///
/// Once an Assembly's files are older than the result TTL (counted from the end of its execution,
/// like Transloadit's temporary storage) they are deleted and answered with 404. A file fetched
/// more than ``FileFetchCounter/limit`` times is refused with 403, as Transloadit refuses an
/// over-fetched temporary file. Download faults (truncate, corrupt, drop, slow, 5xx) are applied here.
struct FileDownloadHandler: Sendable {
    let service: ServiceContext

    func plan(assembly: String, file fileID: String, urls: ServiceURLs) -> HTTPRequestPlan {
        let fault = service.faults.decide(.download)
        if case .status(let status)? = fault {
            return .respond(FaultInjector.statusError(status).response(urls: urls))
        }
        var response = answer(assembly: assembly, file: fileID, corrupted: fault == .corrupt, urls: urls)
        switch fault {
        case .truncate? where response.bodyLength > 0:
            response = response.truncated(afterBodyBytes: response.bodyLength / 2)
        case .drop?, .slow?:
            response = FaultInjector.apply(fault!, to: response)
        default:
            break
        }
        return .respond(response)
    }

    private func answer(assembly: String, file fileID: String, corrupted: Bool, urls: ServiceURLs) -> HTTPResponse {
        let missing = APIError(.fileNotFound, status: 404, "No such file in this Assembly.").about(assembly)
        guard let record = service.store.record(assembly),
              let file = record.storedFiles.first(where: { $0.id == fileID }) else {
            return missing.response(urls: urls)
        }
        guard service.fetches.admit(assembly: assembly, file: fileID) else {
            return APIError(.fileFetchLimitReached, status: 403,
                            "This temporary file was fetched \(FileFetchCounter.limit) times; it is served no more.")
                .about(assembly).response(urls: urls)
        }
        if let expires = service.filesExpire(record), service.clock.now >= expires {
            service.expireFiles(of: assembly)
            return APIError(.fileExpired, status: 404, "The Assembly's files are past their lifetime and were deleted.")
                .about(assembly).response(urls: urls)
        }
        let path = service.store.absolute(file.storedPath)
        do {
            let served = corrupted ? try Self.corruptedCopy(of: path) : path
            let opened = try HTTPFile(path: served)
            service.dropUploadsIfFetched(record)
            return .file(opened, contentType: file.mime)
        } catch {
            return missing.response(urls: urls)
        }
    }

    /// A copy of the file with one byte in the middle changed (made once, kept beside it).
    private static func corruptedCopy(of path: String) throws -> String {
        let copy = path + ".corrupt"
        let manager = FileManager.default
        guard !manager.fileExists(atPath: copy) else { return copy }
        try manager.copyItem(atPath: path, toPath: copy)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: copy))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        guard size > 0 else { return copy }
        try handle.seek(toOffset: size / 2)
        let byte = try handle.read(upToCount: 1) ?? Data([0])
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data([byte[byte.startIndex] ^ 0xFF]))
        return copy
    }
}
