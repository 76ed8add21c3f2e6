import AssemblyLine
import Foundation

/// `--files-from FILE` (or `-`, standard input): the inputs a run or plan is limited to, one a line or NUL-separated.
///
/// Each name is a path relative to `inputs.base` (an absolute one under it is made relative), compared
/// by its bytes, and still filtered by the manifest's globs: what `report --failed --format paths`
/// (or `paths0`) prints, so that "re-run what failed last night" is one pipe. A text holding a NUL is
/// read as NUL-separated, else as lines (a `\r` before a line's end is dropped); empty names are skipped.
enum FilesFrom {
    static let spec = OptionSpec(name: "files-from", valueName: "file",
                                 help: "Only these inputs (relative paths, a line each or NUL-separated; - for standard input), still within the globs.")

    /// The names `source` (a file, or `-`) holds, relative to `base`.
    static func names(in source: String, base: String) throws -> Set<PathKey> {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: source) else { throw UsageError("--files-from: cannot read \(source)") }
            data = read
        }
        let bytes = Array(data)
        let separator: UInt8 = bytes.contains(0) ? 0 : UInt8(ascii: "\n")
        return Set(bytes.split(separator: separator).map { name -> PathKey in
            var name = String(decoding: separator == 0 || name.last != UInt8(ascii: "\r") ? name : name.dropLast(), as: UTF8.self)
            if name.hasPrefix("/"), let relative = PathText.relative(name, to: base) { name = relative }
            return PathKey(name)
        })
    }
}
