import ConfigFormat
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Downloads results to their places, verified: temp file, size and MD5 checked, fsync, atomic rename, then each directory
/// flushed once a batch (``transfer(_:shard:progress:)``, then ``place(_:alongside:)`` for a shard's downloads together).
///
/// A result already in place with the right size and MD5 (a run stopped between the rename and the
/// ledger's commit) is kept and not fetched again. The body stops at the result's declared size
/// (libcurl stops at `Content-Length`), at `limits.max_result_size` when that is larger, or at
/// `limits.max_undeclared_result_size` when the service declared none (``ResultLimits/bound(declared:)``). No
/// download leaves less than `limits.min_free_space` free on the output's file system: one whose declared size
/// would is not started, and one that gets there stops (`OUTPUT_SPACE_LOW`). The
/// temp file's name is the output's and the result's own (``temporaryPath(for:of:)``): two results
/// never write one temp file, and one left by a killed process is overwritten by the next try of
/// that result rather than left behind (the run lock keeps a second writer away).
package struct ResultDownloader: Sendable {
    /// The most fetches of one temporary result: Transloadit refuses a temporary file fetched more than 10 times.
    package static let fetchLimit = 10

    package let client: TransloaditClient
    package let digester: any FileDigester
    /// The most bytes of a result, declared or not.
    package let limits: ResultLimits
    /// The paths the run's results of several inputs took, by shard.
    package let claims: OutputClaims
    private let directories = OutputDirectories()

    package init(client: TransloaditClient, digester: any FileDigester, limits: ResultLimits = ResultLimits(),
                 claims: OutputClaims = OutputClaims()) {
        self.client = client
        self.digester = digester
        self.limits = limits
        self.claims = claims
    }

    /// A result downloaded into its temp file, to be checked and moved into place (``place(_:alongside:)``).
    package struct Transfer: Sendable {
        package let result: NewResult
        let temporary: String
        let path: String
        /// The bytes fetched.
        package let bytes: Int64
    }

    /// Downloads the result of `shard` into its temp file; nil when it is in place already.
    ///
    /// A file already in place is kept only when something could be checked (a size or an MD5)
    /// and matched; with neither, it is fetched again. A result of several inputs whose path another
    /// shard's took in this run (``OutputClaims``) is refused with `OUTPUT_COLLISION`, before anything is fetched.
    /// A file system short of room fails it with `OUTPUT_SPACE_LOW`, not retryable: no backoff frees a disk, and
    /// the shard keeps its Assembly, so `resume` fetches the results without a new one once space is freed.
    /// A failed download leaves no temp file.
    package func transfer(_ result: NewResult, shard: Int, progress: TransferProgressHandler? = nil) async throws(TransloaditError) -> Transfer? {
        guard let path = result.outputPath, let url = result.url else {
            throw Self.failure(.resultNotDownloadable, "\(result.name) of step \(result.step) is not to be downloaded", retryable: false)
        }
        if case .several = result.source, let holder = claims.claim(path, by: shard) {
            throw Self.failure(.outputCollision, "\(result.name) of step \(result.step) renders to \(path), which a result of shard \(holder) "
                                   + "took in this run; nothing was overwritten (put {shard} in output.layout to keep each shard's apart)",
                               retryable: false)
        }
        if result.size != nil || result.md5 != nil, (try? verify(result, at: path)) != nil { return nil }
        let directory = PathText.directory(of: path)
        do {
            try directories.make(directory)
        } catch {
            throw Self.failure(.outputNotWritable, "cannot create \(directory): \(error.localizedDescription)", retryable: false)
        }
        if let free = FreeSpace.available(at: directory), free - (result.size ?? 0) < limits.minFreeSpace {
            throw spaceLow(result, in: directory, free: free, "is not fetched")
        }
        let temporary = Self.temporaryPath(for: path, of: result)
        let bound = limits.bound(declared: result.size)
        do {
            let bytes = try await client.download(url: url, to: temporary, limit: bound.bytes, keepFree: limits.minFreeSpace, progress: progress)
            return Transfer(result: result, temporary: temporary, path: path, bytes: bytes)
        } catch {
            unlink(temporary)
            switch error.code {
            case .transportTooLarge:
                throw Self.failure(.resultTooLarge, "\(result.name) of step \(result.step) ran past \(bound.name); the download stopped there",
                                   retryable: true)
            case .transportLowSpace:
                throw spaceLow(result, in: directory, free: FreeSpace.available(at: directory) ?? 0, "stopped")
            case .transportFileIO:
                // A download reads nothing of this host's: a file it cannot write is the output's fault (no room, no quota,
                // read-only), which every shard would meet.
                throw Self.failure(.outputNotWritable, "\(result.name) of step \(result.step) cannot be written into \(directory): \(error.message)",
                                   retryable: false)
            default:
                throw error
            }
        }
    }

    /// Checks each transfer against its result, flushes it and moves it into place, then flushes once each directory the
    /// placed results and those `alongside` (found in place) are in: one hop to a blocking thread for a shard's downloads,
    /// not two a result. The outcome of each transfer, in order; one that fails leaves no temp file.
    package func place(_ transfers: [Transfer], alongside: [NewResult] = []) async -> [Result<Void, TransloaditError>] {
        guard !transfers.isEmpty || !alongside.isEmpty else { return [] }
        return await BlockingFileWork.run {
            let outcomes = transfers.map { transfer -> Result<Void, TransloaditError> in
                do throws(TransloaditError) {
                    try verifyAndRename(transfer.result, transfer.temporary, to: transfer.path)
                    return .success(())
                } catch {
                    unlink(transfer.temporary)
                    return .failure(error)
                }
            }
            let placed = zip(transfers, outcomes).compactMap { transfer, outcome in (try? outcome.get()).map { transfer.path } }
            Self.flushDirectories(of: placed + alongside.compactMap(\.outputPath))
            return outcomes
        }
    }

    /// `<output>.<result>.part`, where `<result>` is a 64-bit FNV-1a hash in hex of the result's step, name and
    /// inputs: what stays the same when a resume's new Assembly makes the result again (its id and URL do
    /// not), so the next try overwrites what a killed one left. Where that name would pass ``PathText/nameLimit``,
    /// the output name's first 200 bytes (whole characters), a dash and a hash of the whole name take the
    /// output name's place.
    package static func temporaryPath(for path: String, of result: NewResult) -> String {
        let name = PathText.lastComponent(of: path)
        let inputs = result.source.inputs.map(String.init).joined(separator: ",")
        let identity = [result.step, result.name, result.source.kind.rawValue, inputs].joined(separator: "\u{0}")
        let suffix = "." + hex(FNVHash.of(identity)) + ".part"
        guard name.utf8.count + suffix.utf8.count > PathText.nameLimit else { return path + suffix }
        var head = ""
        for character in name {
            guard head.utf8.count + character.utf8.count <= 200 else { break }
            head.append(character)
        }
        return PathText.appending("\(head)-\(hex(FNVHash.of(name)))\(suffix)", to: PathText.directory(of: path))
    }

    /// Sixteen lowercase hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Checks a file's size and MD5 against the result, each when the service gave it.
    private func verify(_ result: NewResult, at path: String) throws(TransloaditError) {
        let file = try Self.openToVerify(path)
        defer { close(file) }
        try verify(result, in: file, path: path)
    }

    /// Checks the download against the result, flushes it and moves it to `path`, all on one descriptor of the temp file.
    private func verifyAndRename(_ result: NewResult, _ temporary: String, to path: String) throws(TransloaditError) {
        let file = try Self.openToVerify(temporary)
        defer { close(file) }
        try verify(result, in: file, path: temporary)
        guard fsync(file) == 0 else {
            throw Self.failure(.outputNotWritable, "cannot flush \(temporary): \(String(cString: strerror(errno)))", retryable: false)
        }
        guard rename(temporary, path) == 0 else {
            throw Self.failure(.outputNotWritable, "cannot move the download to \(path): \(String(cString: strerror(errno)))", retryable: false)
        }
    }

    /// A descriptor of the file at `path` to read; `DOWNLOAD_MISSING` when there is none, `DOWNLOAD_UNREADABLE` when it cannot be opened.
    private static func openToVerify(_ path: String) throws(TransloaditError) -> Int32 {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file < 0 else { return file }
        let reason = errno
        guard reason != ENOENT else { throw failure(.downloadMissing, "\(path) is missing", retryable: true) }
        throw failure(.downloadUnreadable, "\(path): \(String(cString: strerror(reason)))", retryable: true)
    }

    /// Checks the open file's size and MD5 against the result, each when the service gave it.
    private func verify(_ result: NewResult, in file: Int32, path: String) throws(TransloaditError) {
        var info = stat()
        guard fstat(file, &info) == 0 else {
            throw Self.failure(.downloadUnreadable, "\(path): \(String(cString: strerror(errno)))", retryable: true)
        }
        if let size = result.size, Int64(info.st_size) != size {
            throw Self.failure(.downloadSizeMismatch, "\(result.name): \(info.st_size) bytes received, \(size) expected", retryable: true)
        }
        guard let expected = result.md5 else { return }
        let actual: String
        do {
            actual = try digester.md5Hex(ofOpenFile: file, length: Int64(info.st_size), path: path)
        } catch {
            throw Self.failure(.downloadUnreadable, "\(path): \(error)", retryable: true)
        }
        guard actual == expected.lowercased() else {
            throw Self.failure(.downloadChecksumMismatch, "\(result.name): MD5 \(actual), \(expected) expected", retryable: true)
        }
    }

    /// `OUTPUT_SPACE_LOW`: the result `did` (is not fetched, stopped) since `directory`'s file system has `free` bytes.
    private func spaceLow(_ result: NewResult, in directory: String, free: Int64, _ did: String) -> TransloaditError {
        let size = result.size.map { " for its \($0) bytes" } ?? ""
        return Self.failure(.outputSpaceLow, "\(result.name) of step \(result.step) \(did): the file system of \(directory) has "
                                + "\(free >> 20) MiB free\(size), and no download leaves less than limits.min_free_space "
                                + "(\(ConfigUnits.formatSize(limits.minFreeSpace))); free some space, then resume the run",
                            retryable: false)
    }

    /// Makes the renames into `paths` durable: each directory they are in is flushed once, however many it holds.
    private static func flushDirectories(of paths: [String]) {
        for directory in Set(paths.map(PathText.directory(of:))) {
            let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 {
                fsync(folder)
                close(folder)
            }
        }
    }

    private static func failure(_ code: FailureCode, _ message: String, retryable: Bool) -> TransloaditError {
        TransloaditError(code: code, message: message, isRetryable: retryable)
    }
}
