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
struct OutputDirectoryCursor: ~Copyable {
    private var directory = ""
    private var descriptor: Int32 = -1

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The status of the file at the absolute `path`, following links, or nil when it cannot be had.
    mutating func status(of path: String) -> stat? {
        var info = stat()
        let (parent, name) = PathText.directoryAndName(of: path)
        if !PathText.same(parent, directory) {
            if descriptor >= 0 { close(descriptor) }
            directory = parent
            descriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        let found = descriptor >= 0 && !name.isEmpty ? fstatat(descriptor, name, &info, 0) : stat(path, &info)
        return found == 0 ? info : nil
    }
}
