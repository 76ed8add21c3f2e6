import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a failure with the service's own files says to a client: the system's reason and the files by the names the
/// client knows them by, never a path of the data directory (docs/local-service.md, "Execution").
///
/// The operator's log keeps the paths; an Assembly's `reason`, an API error's message and a tus answer do not, since
/// they reach the client, its ledger and its reports.
struct FileFailureText {
    /// What any other path of the data directory is said as.
    static let serviceFile = "a file of the service"

    /// The data directory.
    let root: String

    /// `text` with each of `paths` said as its `name`, then anything else under the data directory (up to a quote, a
    /// space, a bracket or a comma) as ``serviceFile``.
    func scrubbed(_ text: String, naming paths: [(path: String, name: String)] = []) -> String {
        var text = text
        for (path, name) in paths.sorted(by: { $0.path.count > $1.path.count }) {
            text = text.replacingOccurrences(of: path, with: name)
        }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        while let start = text.range(of: prefix)?.lowerBound {
            let end = text[start...].firstIndex { " '\"),\n".contains($0) } ?? text.endIndex
            text.replaceSubrange(start..<end, with: Self.serviceFile)
        }
        return text
    }

    /// The system's reason of a failed file operation (`No space left on device`), without the path its error names.
    static func reason(of error: any Error) -> String {
        let system = (((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error) ?? error) as NSError
        guard system.domain == NSPOSIXErrorDomain else { return error.localizedDescription }
        return String(cString: strerror(Int32(system.code)))
    }
}
