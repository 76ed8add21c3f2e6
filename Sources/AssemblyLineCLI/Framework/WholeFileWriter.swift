import Foundation

/// Writes a file whole: to a temporary name beside it, then renamed over it, so that a reader never sees half a file.
enum WholeFileWriter {
    /// Why the file could not be written: the system's reason.
    struct Failure: Error {
        var reason: String
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        let temporary = path + ".\(getpid()).tmp"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(reason: reason)
        }
    }
}
