import Foundation

extension PlannedFile {
    /// Refuses a file that cannot be sent as planned: gone, unreadable, changed in size or modification time, or empty.
    ///
    /// - Throws: `INPUT_MISSING` when the file is gone, `INPUT_UNREADABLE` when this process may not
    ///   read it, `INPUT_CHANGED` when its size or modification time differ from the plan's,
    ///   `INPUT_EMPTY` when it has no bytes (every bad-image night sent them, for an Assembly each);
    ///   none is retryable, and each names the file.
    package func checkUnchanged() throws(TransloaditError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TransloaditError(code: .inputMissing, message: "\(path) is gone since the plan", isRetryable: false)
        }
        guard access(path, R_OK) == 0 else {
            throw TransloaditError(code: .inputUnreadable, message: "\(path) cannot be read: \(String(cString: strerror(errno)))",
                                   isRetryable: false)
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        guard Int64(info.st_size) == size, modified == modifiedNanoseconds else {
            throw TransloaditError(code: .inputChanged, message: "\(path) changed since the plan (size or modification time)",
                                   isRetryable: false)
        }
        guard size > 0 else {
            throw TransloaditError(code: .inputEmpty, message: "\(path) is empty (0 bytes): nothing is sent", isRetryable: false)
        }
    }
}
