import Foundation

extension PlannedFile {
    /// Refuses a file whose size or modification time changed since the plan: sending it would upload something else.
    ///
    /// - Throws: `INPUT_MISSING` when the file is gone, `INPUT_CHANGED` when its size or modification
    ///   time differ from the plan's; neither is retryable, and both name the file.
    package func checkUnchanged() throws(TransloaditError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TransloaditError(code: .inputMissing, message: "\(path) is gone since the plan", isRetryable: false)
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        guard Int64(info.st_size) == size, modified == modifiedNanoseconds else {
            throw TransloaditError(code: .inputChanged, message: "\(path) changed since the plan (size or modification time)",
                                   isRetryable: false)
        }
    }
}
