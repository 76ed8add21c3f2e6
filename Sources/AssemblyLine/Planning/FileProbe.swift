#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over `fstatat`, `faccessat`, `realpath` and `openat`/`readdir` for the walker, returning `errno` on failure.
///
/// POSIX calls are used rather than `FileManager`, whose attribute dictionaries cost far more per
/// file than one `lstat` (the planner must handle a million files). Entries are reached by name in
/// their open directory where there is one, so the kernel does not walk each whole path again.
enum FileProbe {
    /// How a call reaches an entry: `path` is a name in the open directory `directory`, or with
    /// `AT_FDCWD` a whole path.
    struct Reference {
        var directory: Int32
        var path: String

        /// The entry at the whole path `path`.
        init(path: String) {
            self.init(directory: AT_FDCWD, path: path)
        }

        init(directory: Int32, path: String) {
            self.directory = directory
            self.path = path
        }
    }

    /// What an entry is, from `stat` or from the directory entry's type hint.
    enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, other, unknown
    }

    /// The few `stat` fields the planner needs.
    struct Status: Sendable, Hashable {
        var kind: Kind
        var size: Int64
        var modifiedNanoseconds: Int64
        var identity: DirectoryIdentity
    }

    /// A directory's identity on this machine, to recognize it when a symlink leads back to it.
    struct DirectoryIdentity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// One name read from a directory, with the type `readdir` reported (`.unknown` on some file systems).
    struct Entry: Sendable {
        var name: String
        var kind: Kind
    }

    /// `lstat` (or `stat` when following links) of the entry; nil with `errorCode` set on failure.
    static func status(of entry: Reference, followingLinks: Bool, errorCode: inout Int32) -> Status? {
        var info = stat()
        guard fstatat(entry.directory, entry.path, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else {
            errorCode = errno
            return nil
        }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return Status(kind: kind, size: Int64(info.st_size), modifiedNanoseconds: modified, identity: identity)
    }

    /// The absolute path of `path` with every symlink resolved; nil with `errorCode` set on failure.
    static func realPath(of path: String, errorCode: inout Int32) -> String? {
        guard let resolved = realpath(path, nil) else {
            errorCode = errno
            return nil
        }
        defer { free(resolved) }
        return String(validatingCString: resolved)
    }

    /// Opens the directory `entry` and reads every entry but `.` and `..` in one pass; the caller closes `descriptor`.
    ///
    /// Names that are not valid UTF-8 are left out and returned separately (lossily decoded) so
    /// the caller can report them; nil with `errorCode` set (and nothing left open) when the
    /// directory cannot be read.
    static func openDirectory(
        _ entry: Reference, errorCode: inout Int32
    ) -> (descriptor: Int32, entries: [Entry], undecodable: [String])? {
        let descriptor = openat(entry.directory, entry.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            errorCode = errno
            return nil
        }
        guard let listing = entries(ofCopyOf: descriptor, errorCode: &errorCode) else {
            close(descriptor)
            return nil
        }
        return (descriptor, listing.entries, listing.undecodable)
    }

    /// The entries of the open directory `descriptor`, read through a duplicate that `closedir` closes.
    private static func entries(ofCopyOf descriptor: Int32, errorCode: inout Int32) -> (entries: [Entry], undecodable: [String])? {
        let copy = dup(descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else {
            errorCode = errno
            if copy >= 0 { close(copy) }
            return nil
        }
        defer { closedir(directory) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var entries: [Entry] = []
        var undecodable: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    errorCode = errno
                    return nil
                }
                return (entries, undecodable)
            }
            let namePointer = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            guard let name = String(validatingCString: namePointer) else {
                undecodable.append(String(decoding: UnsafeRawBufferPointer(start: namePointer, count: strlen(namePointer)), as: UTF8.self))
                continue
            }
            if name == "." || name == ".." { continue }
            entries.append(Entry(name: name, kind: kind(ofTypeHint: entry.pointee.d_type)))
        }
    }

    /// The `errno` of `access(R_OK)` of the entry when this process may not read the file; nil when it may.
    static func readError(of entry: Reference) -> Int32? {
        faccessat(entry.directory, entry.path, R_OK, 0) == 0 ? nil : errno
    }

    /// The text of an `errno` value, e.g. "Permission denied".
    static func message(for errorCode: Int32) -> String {
        String(cString: strerror(errorCode))
    }

    private static func kind(ofTypeHint type: UInt8) -> Kind {
        switch Int(type) {
        case Int(DT_REG): return .regular
        case Int(DT_DIR): return .directory
        case Int(DT_LNK): return .symbolicLink
        case Int(DT_UNKNOWN): return .unknown
        default: return .other
        }
    }
}
