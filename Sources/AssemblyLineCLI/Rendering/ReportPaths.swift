import AssemblyLine

/// `report --failed --format paths|paths0`: the failed files' relative paths, a line each or NUL-terminated, for `run --files-from`.
enum ReportPaths {
    static func failed(_ report: RunReport, nulTerminated: Bool) -> String {
        let end = nulTerminated ? "\0" : "\n"
        return report.files(.failed).map { $0.file.relativePath + end }.joined()
    }
}
