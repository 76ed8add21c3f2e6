import Synchronization

/// The last lines a command wrote, bounded: the body of a run's end ping.
///
/// Keeps at most ``limit`` bytes, cut at a line's start; only whole lines are kept, so that a progress bar's
/// redraws (no line feed, carriage returns, escape sequences) are left out and the tail reads as the log does
/// in cron's mail.
final class LogTail: Sendable {
    /// The most bytes kept.
    let limit: Int
    private let bytes = Mutex<[UInt8]>([])

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps `text`, dropping the oldest lines past the limit; a terminal's redraw is not kept.
    func append(_ text: String) {
        guard text.utf8.last == 0x0A, !text.utf8.contains(0x1B), !text.utf8.contains(0x0D) else { return }
        bytes.withLock { kept in
            kept += text.utf8
            guard kept.count > limit else { return }
            var start = kept.count - limit
            if let newline = kept[start...].firstIndex(of: 0x0A) { start = newline + 1 }
            kept.removeFirst(start)
        }
    }

    /// What is kept, as text.
    var text: String {
        bytes.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
