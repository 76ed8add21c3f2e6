import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Creates a directory with its parents, as `mkdir -p`, and says in one line why it could not.
package enum DirectoryCreation {
    /// nil when `path` is a directory now; else the system's reason, naming the component that failed.
    package static func make(_ path: String) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) == 0 || errno == EEXIST {
                var info = stat()
                guard stat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                    return "\(current) is not a directory"
                }
                continue
            }
            return "\(current): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
