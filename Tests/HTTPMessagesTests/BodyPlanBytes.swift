import HTTPMessages

/// The bytes of a body plan, pulled through a `BodyPlanReader` as a transport pulls them.
enum BodyPlanBytes {
    /// Every byte of `plan`, read with a buffer of `bufferSize` bytes.
    static func materialize(_ plan: BodyPlan, bufferSize: Int = 4096) throws(BodyPlanError) -> [UInt8] {
        let reader = BodyPlanReader(plan: plan)
        var output: [UInt8] = []
        while true {
            let chunk = try read(reader, count: bufferSize)
            if chunk.isEmpty { return output }
            output += chunk
        }
    }

    /// The next at most `count` bytes of `reader`.
    static func read(_ reader: BodyPlanReader, count: Int) throws(BodyPlanError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let filled = try reader.read(into: buffer)
        return Array(buffer[0..<filled])
    }
}
