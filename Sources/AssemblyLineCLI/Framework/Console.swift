import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
struct Console: Sendable {
    /// Writes text to standard output as it is.
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to standard output.
    func line(_ text: String) {
        out(text + "\n")
    }

    /// Writes text to standard error as it is.
    func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
