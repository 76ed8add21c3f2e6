#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory of the last output looked at, held open, so that the next output in it is looked at by its name.
///
/// A night checks a million outputs in path order, a thousand a directory: `stat` of each absolute path had the
/// kernel walk every component of it each time (a third of the check's CPU); `fstatat` of a name in the open
/// directory walks one. The same file is found either way: the directory is opened by its path, through links.
/// An output's path is read in place, as its C string: a string is made only for each directory opened.
struct OutputDirectoryCursor: ~Copyable {
    /// The directory held open, through its last `/`.
    private var directory: [UInt8] = []
    private var descriptor: Int32 = -1

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The status of the file at the absolute `path`, following links, or nil when it cannot be had.
    mutating func status(of path: String) -> stat? {
        var info = stat()
        let found = path.withCString { (full: UnsafePointer<CChar>) -> Int32 in
            guard let slash = UnsafePointer(strrchr(full, Int32(UInt8(ascii: "/")))) else { return stat(full, &info) }
            let parent = UnsafeRawBufferPointer(start: full, count: full.distance(to: slash) + 1)
            if parent.count != directory.count || memcmp(full, directory, parent.count) != 0 {
                if descriptor >= 0 { close(descriptor) }
                directory = Array(parent)
                descriptor = open(String(decoding: parent, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            }
            let name = slash + 1
            return descriptor >= 0 && name.pointee != 0 ? fstatat(descriptor, name, &info, 0) : stat(full, &info)
        }
        return found == 0 ? info : nil
    }
}
