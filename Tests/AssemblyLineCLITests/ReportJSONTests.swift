@testable import AssemblyLineCLI
import AssemblyLine
import ConfigFormat
import Testing

/// A file of `report --format json`, written straight into the text from a page's bytes, is the canonical object of its members.
@Suite struct ReportJSONTests {
    @Test(arguments: [nil, Partition(index: 2, count: 4)])
    func aFileIsWrittenAsItsObjectSerializes(partition: Partition?) {
        let failure = FailureReason(code: "IMAGE_RESIZE_ERROR", message: "a \"bad\"\nfile\t\u{1}", isRetryable: true)
        let files = [
            ReportedFile(record: FileRecord(index: 7, shardIndex: 3, file: PlannedFile(path: "/in/a/caf\u{E9} \"1\".jpg", relativePath: "a/caf\u{E9} \"1\".jpg",
                                                                                     size: 42, modifiedNanoseconds: 1),
                                            state: .failed, failure: failure),
                         outputs: ["/out/a/1.jpg", "https://tmp.test/2?x=\"y\"\\\u{1F}"]),
            ReportedFile(record: FileRecord(index: 8, shardIndex: nil, file: PlannedFile(path: "/in/t/target.jpg", relativePath: "b/link.jpg",
                                                                                     size: 0, modifiedNanoseconds: 2),
                                            state: .knownBad, failure: nil),
                         outputs: []),
        ]
        let objects = files.map { file in
            let record = file.record
            var members: [String: JSONValue] = [
                "index": .integer(Int64(record.index)), "shard": record.shardIndex.map { .integer(Int64($0)) } ?? .null,
                "state": .string(record.state.rawValue), "path": .string(record.file.path), "relative_path": .string(record.file.relativePath),
                "size": .integer(record.file.size), "outputs": .array(file.outputs.map(JSONValue.string)),
                "failure": record.failure.map { .object(["code": .string($0.code.rawValue), "message": .string($0.message),
                                                         "retryable": .bool($0.isRetryable)]) } ?? .null,
            ]
            if let partition { members["partition"] = .string(partition.description) }
            return JSONValue.object(members).serialized
        }
        #expect(ReportJSON.objects(of: ReportedFilePage(files), partition: partition) == objects.joined(separator: ","))
    }
}
