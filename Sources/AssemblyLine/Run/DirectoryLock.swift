#if canImport(Glibc)
import Glibc
#endif

/// An `flock` on a directory itself (created when missing), held until this value goes: what keeps
/// two writers out of one output tree or one service data directory. Nothing is written into it.
package final class DirectoryLock {
    private let descriptor: Int32

    /// Why a directory could not be locked.
    package enum Failure: Error {
        /// The directory cannot be made or opened; the reason names the part that failed.
        case unusable(reason: String)
        /// Another process holds it.
        case held
    }

    /// Takes the lock at once, never waiting; a `shared` lock keeps out only an exclusive holder (the
    /// partitions of a batch write apart files into one output tree; any other run holds it alone).
    package init(_ path: String, shared: Bool = false) throws(Failure) {
        if let reason = DirectoryCreation.make(path) { throw .unusable(reason: reason) }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unusable(reason: String(cString: strerror(errno))) }
        guard flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            close(descriptor)
            throw .held
        }
    }

    /// Lets the lock go now; the descriptor closes with this value.
    package func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit {
        close(descriptor)
    }
}
