import HTTPMessages
import TestSupport
import Testing

/// Reading plans of bytes and file ranges, rewinding, and files that changed under the plan.
@Suite struct BodyPlanReaderTests {
    let data: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    @Test(arguments: [1, 3, 1000, 65_536])
    func rangesAndBytesInOrder(bufferSize: Int) throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("data.bin", data)
        var plan = BodyPlan()
        plan.append("head")
        plan.appendFile(path: path, offset: 100, length: 2000)
        plan.append([0xFF])
        plan.appendFile(path: path, offset: 9000, length: 1000)
        plan.appendFile(path: path, offset: 0, length: 0)

        let body = try BodyPlanBytes.materialize(plan, bufferSize: bufferSize)
        var expected = Array("head".utf8)
        expected += data[100..<2100]
        expected.append(0xFF)
        expected += data[9000..<10_000]
        #expect(body == expected)
        #expect(plan.contentLength == Int64(body.count))
    }

    @Test func adjacentBytesMergeAndEmptySegmentsVanish() {
        var plan = BodyPlan()
        plan.append("ab")
        plan.append([])
        plan.append("cd")
        plan.appendFile(path: "/nonexistent", length: 0)
        #expect(plan.segments == [.bytes(Array("abcd".utf8))])
        #expect(plan.contentLength == 4)
    }

    @Test func seekRewindsAndResumes() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("data.bin", data)
        let plan = BodyPlan([.bytes([1, 2, 3]), .file(path: path, offset: 0, length: 10_000)])
        let reader = BodyPlanReader(plan: plan)
        #expect(try BodyPlanBytes.read(reader, count: 5000).count == 5000)
        #expect(reader.position == 5000)

        #expect(reader.seek(to: 2))
        #expect(try BodyPlanBytes.read(reader, count: 4) == [3] + data[0..<3])
        #expect(!reader.seek(to: plan.contentLength + 1))
        #expect(reader.seek(to: 0))
        #expect(try BodyPlanBytes.materialize(plan) == [1, 2, 3] + data)
    }

    @Test func shrunkenFileIsAnErrorNamingIt() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("short.bin", Array(data[0..<100]))
        let plan = BodyPlan([.file(path: path, offset: 0, length: 500)])
        let error = #expect(throws: BodyPlanError.self) { try BodyPlanBytes.materialize(plan) }
        #expect(error == .fileIO(path: path, reason: "ends at byte 100, expected 500 (changed since planned)"))
    }

    @Test func missingFileIsAnErrorNamingIt() throws {
        let plan = BodyPlan([.file(path: "/nonexistent/x.bin", offset: 0, length: 5)])
        #expect(throws: BodyPlanError.fileIO(path: "/nonexistent/x.bin", reason: "open: No such file or directory")) {
            try BodyPlanBytes.materialize(plan)
        }
    }
}
