import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The paths a pattern such as `'/shared/state/*'` names, expanded by AssemblyLine (a scheduler's or cron's
/// command line may pass it quoted): what `--state-dir` globs and a `{partition}` state directory read.
package enum PathGlob {
    /// The existing paths `pattern` names when it is a glob (none when nothing matches), else `pattern` itself.
    package static func expand(_ pattern: String) -> [String] {
        guard pattern.contains(where: { "*?[".contains($0) }) else { return [pattern] }
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
    }
}
