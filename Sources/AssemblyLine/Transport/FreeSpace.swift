#if canImport(Glibc)
import Glibc
#endif

/// The bytes a writer that is not root may still put on a file system (`df`'s Avail): what a download's floor is checked against.
///
/// `f_bavail`, not `f_bfree`: the blocks the file system keeps back for root do not count, so a run as
/// root and a run as the service user see the same room.
package enum FreeSpace {
    /// The bytes free on the file system that holds `path`; nil when it cannot be read.
    package static func available(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return bytes(of: info)
    }

    /// The bytes free on the file system of the open file `descriptor`; nil when it cannot be read.
    package static func available(descriptor: Int32) -> Int64? {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return nil }
        return bytes(of: info)
    }

    private static func bytes(of info: statvfs) -> Int64 {
        let (product, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return overflow ? Int64.max : Int64(clamping: product)
    }
}
