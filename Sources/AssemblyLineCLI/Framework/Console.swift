import ConfigFormat
import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// With ``jsonLines`` (`--log-format json`) standard error holds JSON objects too, one a line:
/// `Error: …` becomes `{"event":"error","message":…}`, `warning: …` an event `warning`, any other
/// line an event `log`.
struct Console: Sendable {
    var jsonLines = false
    /// Keeps the last lines written, when a run pings a monitor with them (``PingMonitor``).
    var tail: LogTail?

    /// Writes text to standard output as it is.
    func out(_ text: String) {
        tail?.append(text)
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to standard output.
    func line(_ text: String) {
        out(text + "\n")
    }

    /// Writes text to standard error: as it is, or each line as a JSON object.
    func error(_ text: String) {
        guard jsonLines else {
            tail?.append(text)
            return FileHandle.standardError.write(Data(text.utf8))
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let (event, message): (String, Substring) = if line.hasPrefix("Error: ") {
                ("error", line.dropFirst("Error: ".count))
            } else if line.hasPrefix("warning: ") {
                ("warning", line.dropFirst("warning: ".count))
            } else {
                ("log", line)
            }
            errorLine(.object(["event": .string(event), "message": .string(String(message))]))
        }
    }

    /// Writes one JSON object as a line to standard error.
    func errorLine(_ object: JSONValue) {
        let line = object.serialized + "\n"
        tail?.append(line)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
