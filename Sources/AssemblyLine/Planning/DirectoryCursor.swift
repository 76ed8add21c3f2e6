#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory of the last file looked at, held open, so that the next file in it is looked at by its name.
///
/// A night checks a million outputs in path order, a thousand a directory: `stat` of each absolute path had the
/// kernel walk every component of it each time (a third of the check's CPU); `fstatat` of a name in the open
/// directory walks one. The inputs a run sends are asked for `access(R_OK)` the same way (``ReadabilityCheck``).
/// The same file is found either way: the directory is opened by its path, through links.
/// A path is read in place, as its C string: a string is made only for each directory opened.
struct DirectoryCursor: ~Copyable {
    /// The directory held open, through its last `/`.
    private var directory: [UInt8] = []
    private var descriptor: Int32 = -1

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The status of the file at the absolute `path`, following links, or nil when it cannot be had.
    mutating func status(of path: String) -> stat? {
        var info = stat()
        let found = reaching(path) { fstatat($0, $1, &info, 0) }
        return found == 0 ? info : nil
    }

    /// The `errno` of `access(R_OK)` of the file at the absolute `path` when this process may not read it; nil when it may.
    mutating func readError(of path: String) -> Int32? {
        reaching(path) { faccessat($0, $1, R_OK, 0) } == 0 ? nil : errno
    }

    /// Calls `body` with the held directory of `path` and its name in it, opening the directory when it is another;
    /// with `AT_FDCWD` and the whole path when the directory cannot be opened or the path ends in `/`.
    private mutating func reaching(_ path: String, _ body: (Int32, UnsafePointer<CChar>) -> Int32) -> Int32 {
        path.withCString { (full: UnsafePointer<CChar>) -> Int32 in
            guard let slash = UnsafePointer(strrchr(full, Int32(UInt8(ascii: "/")))) else { return body(AT_FDCWD, full) }
            let parent = UnsafeRawBufferPointer(start: full, count: full.distance(to: slash) + 1)
            if parent.count != directory.count || memcmp(full, directory, parent.count) != 0 {
                if descriptor >= 0 { close(descriptor) }
                directory = Array(parent)
                descriptor = open(String(decoding: parent, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            }
            let name = slash + 1
            return descriptor >= 0 && name.pointee != 0 ? body(descriptor, name) : body(AT_FDCWD, full)
        }
    }
}
