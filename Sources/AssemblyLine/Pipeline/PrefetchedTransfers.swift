import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The results a shard fetched before its Assembly completed, in their temp files until its download step places them.
///
/// A prefetch only downloads; the download step takes each transfer for the result it stands for and places it with
/// the shard's other downloads (one hop to a blocking thread a shard), checked against what the completed status says.
/// What no download step takes (an Assembly that failed, a stop) is unlinked when the shard ends: no temp file outlives
/// the shard that fetched it, save a killed process's, which the next try of that result overwrites.
package final class PrefetchedTransfers: Sendable {
    private let transfers = Mutex<[String: ResultDownloader.Transfer]>([:])

    package init() {}

    /// Keeps a prefetch's transfer for the download step.
    package func keep(_ transfer: ResultDownloader.Transfer) {
        let replaced = transfers.withLock { $0.updateValue(transfer, forKey: transfer.path) }
        if let replaced, replaced.temporary != transfer.temporary { unlink(replaced.temporary) }
    }

    /// The transfer of `result`, to be checked against it, when a prefetch fetched it from the same URL into the same
    /// temp file; nil otherwise (what was fetched for its path from elsewhere is unlinked, and the result fetched anew).
    package func take(for result: NewResult) -> ResultDownloader.Transfer? {
        guard let path = result.outputPath, let early = transfers.withLock({ $0.removeValue(forKey: path) }) else { return nil }
        guard early.result.url == result.url, early.temporary == ResultDownloader.temporaryPath(for: path, of: result) else {
            unlink(early.temporary)
            return nil
        }
        return ResultDownloader.Transfer(result: result, temporary: early.temporary, path: path, bytes: early.bytes)
    }

    /// Unlinks the temp files no download step took.
    package func discardAll() {
        let left = transfers.withLock { current in
            defer { current = [:] }
            return current
        }
        left.values.forEach { unlink($0.temporary) }
    }
}
