#if canImport(Glibc)
import Glibc
#endif

/// The lines of a file one at a time, each at most a bound: all a URL list's reader holds of its file.
///
/// A line ends at `\n`; a `\r` before it and a UTF-8 byte order mark at the file's start are dropped. A line
/// over the bound fails as soon as the bytes read pass it, so a 10 MB line is never held whole.
final class URLListLines {
    private let descriptor: Int32
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the line ``next()`` returned last, from 1.
    private(set) var number = 0

    private static let chunkSize = 64 << 10

    init(path: String, limit: Int) throws(URLListError.Problem) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        self.limit = limit
    }

    deinit {
        close(descriptor)
    }

    /// The next line, without its end; nil after the last.
    func next() throws(URLListError.Problem) -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                start = newline + 1
                return try finished(line)
            }
            guard buffer.count - start <= limit + 1 else { throw .lineTooLong(limit: limit) }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return try finished(line)
            }
            try fill()
        }
    }

    private func finished(_ line: ArraySlice<UInt8>) throws(URLListError.Problem) -> [UInt8] {
        number += 1
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        guard line.count <= limit else { throw .lineTooLong(limit: limit) }
        return Array(line)
    }

    private func fill() throws(URLListError.Problem) {
        buffer.removeFirst(start)
        start = 0
        let kept = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + kept, Self.chunkSize) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        buffer.removeLast(Self.chunkSize - count)
        atEnd = count == 0
    }
}
