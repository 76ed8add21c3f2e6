import AssemblyLine
import Digests
import Foundation

/// What the import Robots share: the transport, the URL rule, the size bound, the Template Credentials, where files go.
///
/// A fetched body goes to a file of the Assembly (`assemblies/<id>/files/<file id>`) as it arrives, at most
/// ``maxFileSize`` bytes; a failed or refused fetch leaves nothing behind. A body cut short of its `Content-Length`
/// is a failure of the transport (`reset`), which reads no byte past it.
struct ImportContext: Sendable {
    let store: AssemblyStore
    /// Nil when the service was started without a transport: every import fails.
    let fetcher: ImportFetcher?
    let rule: ImportURLRule
    let maxFileSize: Int64
    let credentials: [String: TemplateCredential]
    /// The time requests are signed at.
    let clock: any PipelineClock

    /// Why a fetch brought no file.
    enum FetchFailure: Error {
        /// The service has no transport.
        case unavailable
        case transport(TransportError)
        /// A status other than 2xx, with the first bytes of its body.
        case status(Int, body: [UInt8])
        /// The file written could not be read back to hash it.
        case unreadable(String)
    }

    /// The bytes of one fetch, placed as a new file of an Assembly.
    struct Fetched {
        var id: String
        var storedPath: String
        var size: Int64
        var md5hash: String
        var contentType: String?
    }

    /// Fetches `request` into a new file of `assembly`.
    func fetch(_ request: HTTPRequestSpec, options: HTTPTransferOptions, assembly: String) -> Result<Fetched, FetchFailure> {
        guard let fetcher else { return .failure(.unavailable) }
        let id = ServiceID.make()
        let storedPath = store.storedPath(assembly: assembly, file: id)
        let path = store.absolute(storedPath)
        let discard = { try? FileManager.default.removeItem(atPath: path) }
        let response: HTTPResponseInfo
        switch fetcher.send(request, to: .file(path: path, limit: maxFileSize), options: options) {
        case .failure(let error):
            discard()
            return .failure(.transport(error))
        case .success(let answer):
            response = answer
        }
        guard response.isSuccess else {
            let body = Array(response.bodyPrefix(limit: 64 << 10).utf8)
            discard()
            return .failure(.status(response.status, body: body))
        }
        let size: Int64
        if case .file(_, let length) = response.body { size = length } else { size = 0 }
        do {
            let md5 = Hex.encode(try Digest.hashFile(.md5, path: path))
            return .success(Fetched(id: id, storedPath: storedPath, size: size, md5hash: md5, contentType: response.header("Content-Type")))
        } catch {
            discard()
            return .failure(.unreadable(FileFailureText.reason(of: error)))
        }
    }

    /// The file of the Assembly a fetch made, named `name`: its own original, with no field.
    func file(_ fetched: Fetched, name: String, assembly: String) -> ServiceAssemblyFile {
        let (basename, ext) = ServiceAssemblyFile.split(name: name)
        return ServiceAssemblyFile(
            id: fetched.id, assemblyID: assembly, name: name, basename: basename, ext: ext, size: fetched.size,
            mime: ServiceAssemblyFile.mime(declared: fetched.contentType, name: name), field: nil, md5hash: fetched.md5hash,
            originalID: fetched.id, originalName: name, originalBasename: basename, originalMD5: fetched.md5hash,
            isTusFile: false, userMeta: [:], storedPath: fetched.storedPath)
    }

    /// What a failed fetch says after "could not import X: ", without any path of the data directory.
    func reason(of failure: FetchFailure) -> String {
        switch failure {
        case .unavailable: "the service was started without a transport, so it fetches nothing"
        case .transport(.tooLarge): "it is larger than the \(maxFileSize) bytes the service imports"
        case .transport(let error): FileFailureText(root: store.root).scrubbed(error.description)
        case .status(let status, _): "the answer was HTTP \(status)"
        case .unreadable(let reason): "the file it made could not be read: \(reason)"
        }
    }
}
