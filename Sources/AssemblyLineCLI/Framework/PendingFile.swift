import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file being written under a temporary name beside its target (`NAME.PID.tmp`), renamed over the target once
/// whole, or removed: what ``WholeFileWriter`` writes through, a piece at a time.
///
/// Used by one writer at a time, so it is not `Sendable`. A write that fails is remembered and ends the writing: the
/// pieces after it are dropped and ``commit()`` throws its reason, so a report is never left half written.
final class PendingFile {
    private let path: String
    private let temporary: String
    private var descriptor: Int32
    /// The `errno` of the first write that failed, 0 while none has.
    private var failure: Int32 = 0

    init(beside path: String) throws(WholeFileWriter.Failure) {
        self.path = path
        temporary = path + ".\(getpid()).tmp"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw WholeFileWriter.Failure(reason: String(cString: strerror(errno))) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends `text` whole, unless an earlier write failed.
    func append(_ text: String) {
        guard failure == 0 else { return }
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += count
            }
        }
    }

    /// Closes the file and renames it over the target; on any failure removes it and throws the system's reason.
    func commit() throws(WholeFileWriter.Failure) {
        let closed = close(descriptor)
        descriptor = -1
        if failure == 0, closed != 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure != 0 else { return }
        let reason = String(cString: strerror(failure))
        unlink(temporary)
        throw WholeFileWriter.Failure(reason: reason)
    }

    /// Closes and removes the file: the target stays as it was.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporary)
    }
}
