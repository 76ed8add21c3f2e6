import Foundation

/// The deterministic byte stream `test_server.py` serves: byte i is `block[i % period]`.
enum Pattern {
    static let period = 65521
    static let block: [UInt8] = (0..<period).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }

    /// The first `count` bytes of the stream.
    static func prefix(_ count: Int) -> [UInt8] {
        (0..<count).map { block[$0 % period] }
    }

    /// True when the file at `path` is exactly the first `length` bytes of the stream, read one period at a time.
    static func fileMatches(_ path: String, length: Int64) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var offset: Int64 = 0
        while true {
            guard let chunk = try handle.read(upToCount: period), !chunk.isEmpty else { break }
            let matches = chunk.withUnsafeBytes { read in
                block.withUnsafeBytes { memcmp(read.baseAddress!, $0.baseAddress!, read.count) == 0 }
            }
            guard matches else { return false }
            offset += Int64(chunk.count)
        }
        return offset == length
    }
}

/// Peak and current resident memory of this process, from /proc/self/status.
enum ResidentMemory {
    /// The value of `field` (e.g. "VmRSS", "VmHWM") in bytes.
    static func bytes(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            if let kilobytes = digits.first { return kilobytes * 1024 }
        }
        throw TestServerError(message: "no \(field) in /proc/self/status")
    }
}

