import ConfigFormat
import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// With ``json`` (`--log-format json`) standard error holds JSON objects too, one an event: a text
/// `Error: …` becomes one object of event `error`, `warning: …` one of event `warning`, any other text
/// one of event `log`; its `message` is the text's first line (a usage line or a quoted manifest line
/// after it is left out: what a log reader needs comes as members, ``error(_:members:)``).
struct Console: Sendable {
    /// The JSON log's stamps, when lines are JSON objects; nil for text.
    var json: JSONLog?
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

    /// Writes a line about `event` to standard output: `text`, or, as JSON, the event's object with `text` as its message.
    func line(_ text: String, event: String) {
        line(json.map { $0.object(event, message: text).serialized } ?? text)
    }

    /// Writes text to standard error: as it is, or as one JSON object with `members` besides its event and message.
    func error(_ text: String, members: [String: JSONValue] = [:]) {
        guard let json else {
            tail?.append(text)
            return FileHandle.standardError.write(Data(text.utf8))
        }
        let first = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        let (event, message): (String, Substring) = if first.hasPrefix("Error: ") {
            ("error", first.dropFirst("Error: ".count))
        } else if first.hasPrefix("warning: ") {
            ("warning", first.dropFirst("warning: ".count))
        } else {
            ("log", first)
        }
        errorLine(json.object(event, message: String(message), members: members))
    }

    /// Writes one JSON object as a line to standard error.
    func errorLine(_ object: JSONValue) {
        let line = object.serialized + "\n"
        tail?.append(line)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
