import AssemblyLine

#if canImport(Glibc)
import Glibc
#endif

/// Receives a response body as libcurl delivers it: into memory up to a bound, straight into a file, or to a stream's receiver.
final class ResponseSink {
    private enum Storage {
        case memory(limit: Int, bytes: [UInt8])
        case file(path: String, descriptor: Int32, limit: Int64?, keepFree: Int64?)
        case stream(HTTPStreamReceiver)
    }

    private var storage: Storage
    /// Body bytes accepted so far.
    private(set) var count: Int64 = 0
    /// Whether the response under way is not a success: its body (an error's) is bounded like an API answer, not by the file's limit.
    private var isErrorBody = false

    /// How often a file's free space is read again as its body grows: every MiB.
    static let freeSpaceStep: Int64 = 1 << 20

    /// Prepares the destination; a file is created (or truncated) now, before anything is sent.
    init(_ destination: HTTPDestination) throws(TransportError) {
        switch destination {
        case let .memory(limit):
            storage = .memory(limit: limit, bytes: [])
        case let .file(path, limit, keepFree):
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .fileIO(path: path, reason: "create: " + String(cString: strerror(errno))) }
            storage = .file(path: path, descriptor: descriptor, limit: limit, keepFree: keepFree)
        case let .stream(receiver):
            storage = .stream(receiver)
        }
    }

    deinit {
        if case let .file(_, descriptor, _, _) = storage {
            close(descriptor)
        }
    }

    /// Drops what was received so far: the body of a redirect or an interim response is not the answer;
    /// `status` is the new response's code.
    func reset(status: Int?) throws(TransportError) {
        let received = count
        count = 0
        isErrorBody = !(status.map { (200..<300).contains($0) } ?? true)
        switch storage {
        case let .memory(limit, _):
            storage = .memory(limit: limit, bytes: [])
        case .file where received == 0:
            // Nothing was written since the file was created or last emptied: it is empty already.
            break
        case let .file(path, descriptor, _, _):
            guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw .fileIO(path: path, reason: "truncate: " + String(cString: strerror(errno)))
            }
        case .stream:
            break
        }
    }

    /// Stores `chunk`.
    ///
    /// - Throws: `.tooLarge` past the memory or file bound (with `endpoint`), `.insufficientSpace` when the file's
    ///   file system would keep less free than asked, `.fileIO` when the file cannot be written.
    func append(_ chunk: UnsafeRawBufferPointer, endpoint: String) throws(TransportError) {
        switch storage {
        case .memory(let limit, var bytes):
            guard bytes.count + chunk.count <= limit else { throw .tooLarge(endpoint: endpoint, limit: limit) }
            storage = .memory(limit: limit, bytes: [])
            bytes.append(contentsOf: chunk)
            storage = .memory(limit: limit, bytes: bytes)
        case let .file(path, descriptor, limit, keepFree):
            let bound = isErrorBody ? Int64(HTTPDestination.defaultMemoryLimit) : limit
            if let bound, count + Int64(chunk.count) > bound { throw .tooLarge(endpoint: endpoint, limit: Int(bound)) }
            if let keepFree { try checkRoom(for: chunk.count, keeping: keepFree, path: path, descriptor: descriptor) }
            var written = 0
            while written < chunk.count {
                let result = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw .fileIO(path: path, reason: "write: " + String(cString: strerror(errno)))
                }
                written += result
            }
        case let .stream(receiver):
            receiver.receive(Array(chunk))
        }
        count += Int64(chunk.count)
    }

    /// Throws when writing `bytes` more would leave less than `floor` free on the file's file system: read at the
    /// body's first chunk and then each time it enters another ``freeSpaceStep``, so other writers (a parallel
    /// download) count too. A file system whose free space cannot be read is not held back.
    private func checkRoom(for bytes: Int, keeping floor: Int64, path: String, descriptor: Int32) throws(TransportError) {
        let next = count + Int64(bytes)
        guard count == 0 || count / Self.freeSpaceStep != next / Self.freeSpaceStep,
              let free = FreeSpace.available(descriptor: descriptor), free - Int64(bytes) < floor else { return }
        throw .insufficientSpace(path: path, available: free, floor: floor)
    }

    /// The body as the response will carry it.
    var body: HTTPResponseBody {
        switch storage {
        case let .memory(_, bytes): .bytes(bytes)
        case let .file(path, _, _, _): .file(path: path, length: count)
        case .stream: .bytes([])
        }
    }
}

@available(*, unavailable)
extension ResponseSink: Sendable {}
