package import Foundation

extension Pipe {
    /// What a child wrote to this pipe up to its first newline (or its end), blocking until then: a server's "ready" line.
    package func firstLine() -> Data {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        return line
    }
}
