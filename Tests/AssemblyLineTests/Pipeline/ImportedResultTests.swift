@testable import AssemblyLine
import ConfigFormat
import Testing

/// Results of Assemblies that imported their inputs: bound to their input by what the import step fetched, never by name.
@Suite struct ImportedResultTests {
    static func mapper(_ step: ImportStep) throws -> ResultMapper {
        ResultMapper(runID: try RunID(parsing: "20261130T210501Z-3f9a2c"), shardIndex: 0,
                     output: OutputSettings(dir: "/out", layout: try OutputLayout("{step}/{relpath}.{ext}"),
                                            steps: ResultSelection(downloaded: nil, exported: [])),
                     urls: ResultURLRule(endpoint: "https://api2.transloadit.com"), importStep: step)
    }

    static func record(_ index: Int, path: String, relative: String) -> FileRecord {
        FileRecord(index: index, shardIndex: 0, file: PlannedFile(path: path, relativePath: relative, size: 1, modifiedNanoseconds: 7),
                   state: .pending, failure: nil)
    }

    static func status(_ results: String) throws -> AssemblyStatus {
        try #require(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","uploads":[],"results":\#(results)}"#.utf8)))
    }

    @Test func bucketResultsAreBoundByTheKeyTheImportReportsAndTwoNamesAlikeStayApart() throws {
        let step = ImportStep(robot: .s3, credentials: "media", host: nil, bucket: "media")
        let files = [Self.record(3, path: "s3://media/in/a/x.jpg", relative: "a/x.jpg"), Self.record(4, path: "s3://media/in/b/x.jpg", relative: "b/x.jpg")]
        let status = try Self.status(#"""
            {"imported":[{"id":"i1","name":"x.jpg","original_id":"i1","original_path":"/in/b/x.jpg","ssl_url":"https://tmp/i1"},
                         {"id":"i0","name":"x.jpg","original_id":"i0","original_path":"in/a/x.jpg","ssl_url":"https://tmp/i0"}],
             "thumb":[{"id":"t0","name":"x.jpg","ext":"jpg","original_id":"i0","ssl_url":"https://tmp/t0"},
                      {"id":"t1","name":"x.jpg","ext":"jpg","original_id":"i1","ssl_url":"https://tmp/t1"}]}
            """#)
        let results = try Self.mapper(step).results(of: status, files: files).results
        let thumbs = results.filter { $0.step == "thumb" }
        #expect(thumbs.map(\.remoteID) == ["t0", "t1"] && thumbs.map(\.fileIndex) == [3, 4])
        #expect(thumbs.map(\.outputPath) == ["/out/thumb/a/x.jpg", "/out/thumb/b/x.jpg"])
        #expect(!results.contains { $0.step == ImportStep.name }, "the imported files are the inputs, not results")
        let failed = try #require(AssemblyStatus.decode(Array(#"{"ok":null,"error":"IMAGE_RESIZE_ERROR","original_id":"i1","uploads":[],"results":{"imported":[{"id":"i1","original_path":"/in/b/x.jpg"}]}}"#.utf8)))
        #expect(try Self.mapper(step).failedFileIndex(of: failed, files: files) == 4, "an execution error names its input through the imported file")
    }

    @Test func withoutTheImportStepsFilesAResultOfOneIsBoundByItsOwnKeyAndOneOfSeveralByNothing() throws {
        let step = ImportStep(robot: .minio, credentials: "media", host: "127.0.0.1:9000", bucket: "media")
        let files = [Self.record(0, path: "s3://media/in/ü/a b.png", relative: "ü/a b.png"), Self.record(1, path: "s3://media/in/c.png", relative: "c.png")]
        let status = try Self.status(#"""
            {"resize":[{"id":"r0","name":"a b.png","ext":"png","original_id":"i0","original_path":"in/ü/a b.png","ssl_url":"https://tmp/r0"},
                       {"id":"r1","name":"c.png","ext":"png","original_id":"i1","original_path":"in/elsewhere.png","ssl_url":"https://tmp/r1"}],
             "zip":[{"id":"z","name":"all.zip","ext":"zip","original_id":["i0","i1"],"original_path":"in/c.png","ssl_url":"https://tmp/z"}]}
            """#)
        let results = try Self.mapper(step).results(of: status, files: files).results
        #expect(results.map(\.source) == [.file(0), .unmatched, .unmatched])
        #expect(results.map(\.outputPath) == ["/out/resize/ü/a b.png", nil, nil])
    }

    @Test func urlResultsAreBoundByTheirImportURLAndAnUnknownURLByNothing() throws {
        let step = ImportStep(robot: .http, credentials: nil, host: nil, bucket: nil)
        let files = [Self.record(0, path: "https://cdn.example.com/a.jpg", relative: "a.jpg")]
        let status = try Self.status(#"""
            {"imported":[{"id":"i0","name":"a.jpg","meta":{"import_url":"https://cdn.example.com/a.jpg"},"ssl_url":"https://tmp/i0"},
                         {"id":"i9","name":"evil.jpg","meta":{"import_url":"https://elsewhere.example/evil.jpg"},"ssl_url":"https://tmp/i9"}],
             "thumb":[{"id":"t0","name":"a.jpg","ext":"jpg","meta":{"import_url":"https://cdn.example.com/a.jpg"},"ssl_url":"https://tmp/t0"},
                      {"id":"t9","name":"evil.jpg","ext":"jpg","original_id":"i9","ssl_url":"https://tmp/t9"}]}
            """#)
        let results = try Self.mapper(step).results(of: status, files: files).results
        #expect(results.map(\.remoteID) == ["t0", "t9"])
        #expect(results.map(\.source) == [.file(0), .unmatched])
        #expect(results.filter { $0.outputPath != nil }.map(\.remoteID) == ["t0"])
    }

    @Test func aTemplateGetsTheImportStepBesideItsIDAndUseListsNameIt() throws {
        let step = ImportStep(robot: .s3, credentials: "media", host: nil, bucket: "media")
        let instructions = AssemblyInstructions.template(id: "tpl", fields: ["w": .integer(5)])
        let members = instructions.members(importing: step, sources: ["in/a.jpg"])
        #expect(members["template_id"] == .string("tpl"))
        #expect(members["steps"] == .object([ImportStep.name: .object(["robot": .string("/s3/import"), "result": .bool(true), "credentials": .string("media"),
                                                                        "path": .array([.string("in/a.jpg")])])]))
        let use = AssemblyInstructions.renaming(.object(["steps": .array([.object(["name": .string(":original"), "as": .string("video")]),
                                                                          .string("other")])]),
                                                 from: ":original", to: ImportStep.name)
        #expect(use == .object(["steps": .array([.object(["name": .string("imported"), "as": .string("video")]), .string("other")])]))
    }
}
