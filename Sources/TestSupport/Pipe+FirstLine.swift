package import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Pipe {
    /// What a child wrote to this pipe up to its first newline (or its end), blocking until then: a server's "ready" line.
    ///
    /// Read with `read(2)`, a read a signal interrupts (`EINTR`: another child of the test process exiting) tried
    /// again: Foundation's `availableData` ends the process on it.
    package func firstLine() -> Data {
        var line = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let descriptor = fileHandleForReading.fileDescriptor
        while !line.contains(0x0A) {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            line.append(contentsOf: buffer[0..<count])
        }
        return line
    }
}
