import AssemblyLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The data directory's `ended.log`, which opens the store: a line for each Assembly that ended, appended as it ends.
///
/// A line is `<id> <creation number> <end in ms since 1970>` (`0a1b… 12 1796315118146.79`), so that opening the
/// store indexes every ended Assembly from this one file instead of a file in each Assembly's directory (100,000 of
/// them: an `open` each, most of start-up). Only a whole line counts: an append cut off by a crash leaves a tail
/// without its newline, which ``read()`` cuts off; the Assembly it named is then indexed from its record and appended
/// again. (A short write in the middle, the disk full, joins two lines into one that reads as neither.) A later line
/// of an ID wins over an earlier one.
struct EndedJournal: Sendable {
    /// What a line says of an Assembly.
    struct Entry: Sendable, Hashable {
        var sequence: Int
        var end: Date

        /// The entry that `<creation number> <end in ms>` says (also the text of the `ended` files of earlier stores).
        init?(_ text: Substring) {
            guard let space = text.utf8.firstIndex(of: UInt8(ascii: " ")), let sequence = Int(text[..<space]),
                  let milliseconds = Double(text[text.index(after: space)...]), milliseconds.isFinite else { return nil }
            self.init(sequence: sequence, end: Date(timeIntervalSince1970: milliseconds / 1000))
        }

        init(sequence: Int, end: Date) {
            self.sequence = sequence
            self.end = end
        }

        /// `<creation number> <end in ms>`.
        var text: String { "\(sequence) \(end.timeIntervalSince1970 * 1000)" }
    }

    let path: String

    /// The entry of each Assembly a whole line names; empty without a file. Cuts off a last line without its newline.
    func read() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        let whole = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 - data.startIndex + 1 } ?? 0
        if whole < data.count { truncate(path, off_t(whole)) }
        let text = String(decoding: data.prefix(whole), as: UTF8.self)
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(whole / 56)
        var rest = text[...]
        while let newline = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) {
            let line = rest[..<newline]
            rest = rest[rest.index(after: newline)...]
            guard let space = line.utf8.firstIndex(of: UInt8(ascii: " ")), let id = AssemblyID(String(line[..<space])),
                  let entry = Entry(line[line.index(after: space)...]) else { continue }
            entries[id.rawValue] = entry
        }
        return entries
    }

    /// Appends a line for each of these Assemblies, in one write.
    func append(_ ended: [(id: String, entry: Entry)]) throws {
        guard !ended.isEmpty else { return }
        try write(ended.map { "\($0.id) \($0.entry.text)\n" }.joined())
    }

    /// Appends `text` with one `write`, creating the file if need be.
    private func write(_ text: String) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var text = text
        let written = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == text.utf8.count else {
            throw POSIXError(POSIXErrorCode(rawValue: written < 0 ? errno : ENOSPC) ?? .EIO)
        }
    }
}
