@testable import AssemblyLineCLI
import Testing

/// The end ping's body: the log's last lines within the bound, cut at a line's start, without a progress bar's redraws.
@Suite struct LogTailTests {
    @Test func theOldestLinesGoPastTheBoundAndWhatStaysStartsAtALine() {
        let tail = LogTail(limit: 100)
        for number in 0..<50 { tail.append("line \(number) of the log\n") }
        let text = tail.text
        #expect(text.utf8.count <= 100 && text.hasSuffix("line 49 of the log\n"), "\(text)")
        #expect(text.hasPrefix("line "), "cut at a line's start: \(text)")
        #expect(!text.contains("line 44 "), "\(text)")
    }

    @Test func aProgressBarsRedrawsAreLeftOut() {
        let tail = LogTail(limit: 1_000)
        tail.append("shard 0: signed\n")
        tail.append("\r\u{1B}[K")
        tail.append("[#####-----]  1/2 shards")
        tail.append("\r[##########]  2/2 shards")
        tail.append("run finished\n")
        #expect(tail.text == "shard 0: signed\nrun finished\n", "\(tail.text)")
    }
}
