import AssemblyLine
import Foundation

/// A fresh temp directory for one transport test, removed when released, with helpers to fill and read it.
final class TransportScratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "assemblyline-transport-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `bytes` to `name` inside the directory and returns its path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Every byte of `plan`, pulled through a `BodyPlanReader` with a buffer of `bufferSize` bytes.
    static func materialize(_ plan: BodyPlan, bufferSize: Int = 4096) throws(TransportError) -> [UInt8] {
        let reader = BodyPlanReader(plan: plan)
        var output: [UInt8] = []
        while true {
            let chunk = try read(reader, count: bufferSize)
            if chunk.isEmpty { return output }
            output += chunk
        }
    }

    /// The next at most `count` bytes of `reader`.
    static func read(_ reader: BodyPlanReader, count: Int) throws(TransportError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let filled = try reader.read(into: buffer)
        return Array(buffer[0..<filled])
    }
}
