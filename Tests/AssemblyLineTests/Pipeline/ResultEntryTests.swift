@testable import AssemblyLine
import ConfigFormat
import Testing

/// Results read entry by entry, as node-sdk's result schema allows them, and what becomes of each.
@Suite struct ResultEntryTests {
    static let files = [
        FileRecord(index: 0, shardIndex: 0, file: PlannedFile(path: "/in/a.jpg", relativePath: "a.jpg", size: 1, modifiedNanoseconds: 0),
                   state: .pending, failure: nil),
        FileRecord(index: 1, shardIndex: 0, file: PlannedFile(path: "/in/b.jpg", relativePath: "b.jpg", size: 1, modifiedNanoseconds: 0),
                   state: .pending, failure: nil),
    ]

    static let uploads = #"[{"id":"u0","field":"file_0"},{"id":"u1","field":"file_1"}]"#

    static func status(results: String) throws -> AssemblyStatus {
        try #require(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","uploads":\#(uploads),"results":\#(results)}"#.utf8)))
    }

    static func mapper(_ selection: ResultSelection = ResultSelection(downloaded: nil, exported: [])) throws -> ResultMapper {
        ResultMapper(runID: try RunID(parsing: "20261130T210501Z-3f9a2c"), shardIndex: 0,
                     output: OutputSettings(dir: "/out", layout: try OutputLayout("{step}/{relpath}.{ext}"), steps: selection),
                     urls: ResultURLRule(endpoint: "https://api2.transloadit.com"))
    }

    @Test func aResultWithoutIDOrSizeIsKeptAndTheOthersToo() throws {
        let status = try Self.status(results: #"""
            {"thumb":[{"name":"a.jpg","ext":"jpg","original_id":"u0","ssl_url":"https://tmp/a.jpg","md5hash":"aa"},
                      {"id":"r1","name":"b.jpg","ext":"jpg","field":"file_1","size":20,"ssl_url":"https://tmp/b.jpg"}]}
            """#)
        let results = try Self.mapper().results(of: status, files: Self.files).results
        #expect(results.map(\.fileIndex) == [0, 1])
        #expect(results.map(\.remoteID) == [nil, "r1"] && results.map(\.size) == [nil, 20] && results.map(\.md5) == ["aa", nil])
        #expect(results.map(\.outputPath) == ["/out/thumb/a.jpg", "/out/thumb/b.jpg"])
    }

    @Test func oddEntriesAreLeftOutOneByOne() throws {
        let status = try Self.status(results: #"""
            {"thumb":[42, {"id":"r0","name":"a.jpg","field":"file_0","ssl_url":"https://tmp/a.jpg","size":"big"}, null],
             "broken":"not a list",
             "medium":[{"id":"r1","name":"b.jpg","field":"file_1","ssl_url":"https://tmp/b.jpg","size":5}]}
            """#)
        #expect(status.unreadableEntries == 3)
        #expect(status.results.keys.sorted() == ["medium", "thumb"])
        let results = try Self.mapper().results(of: status, files: Self.files).results
        #expect(results.map(\.remoteID) == ["r1", "r0"] && results.map(\.size) == [5, nil])
    }

    @Test func anOriginalIDArrayMapsToItsOneInputOrToNoneForSeveral() throws {
        let status = try Self.status(results: #"""
            {"one":[{"id":"r0","name":"a.jpg","original_id":["u0",null],"ssl_url":"https://tmp/a.jpg"}],
             "zip":[{"id":"r1","name":"all.zip","ext":"zip","original_id":["u0","u1"],"ssl_url":"https://tmp/all.zip"}]}
            """#)
        let results = try Self.mapper().results(of: status, files: Self.files).results
        #expect(results.map(\.step) == ["one", "zip"] && results.map(\.fileIndex) == [0, nil])
        #expect(results.map(\.source) == [.file(0), .several([0, 1])])
        #expect(results.map(\.outputPath) == ["/out/one/a.jpg", "/out/zip/all.zip"])
    }

    @Test func aResultThatNamesNoInputOfTheAssemblyIsRecordedApartAndNeverDownloaded() throws {
        let status = try Self.status(results: #"""
            {"thumb":[{"id":"r0","name":"../../etc/x.jpg","field":"file_7","ssl_url":"https://tmp/x.jpg"},
                      {"id":"r1","name":"y.jpg","original_id":"u9","ssl_url":"https://tmp/y.jpg"},
                      {"id":"r2","name":"z.jpg","ssl_url":"https://tmp/z.jpg"},
                      {"id":"r3","name":"b.jpg","field":"file_1","ssl_url":"https://tmp/b.jpg"}]}
            """#)
        let mapping = try Self.mapper().results(of: status, files: Self.files)
        #expect(mapping.results.map(\.source) == [.unmatched, .unmatched, .unmatched, .file(1)])
        #expect(mapping.results.map(\.outputPath) == [nil, nil, nil, "/out/thumb/b.jpg"])
        #expect(mapping.unmatched == 3 && mapping.refusals.isEmpty)
    }

    @Test func aSecondResultForATakenPathIsRefusedAndNothingIsOverwritten() throws {
        let status = try Self.status(results: #"""
            {"thumb":[{"id":"r0","name":"a.jpg","field":"file_0","ssl_url":"https://tmp/a0.jpg"},
                      {"id":"r1","name":"a.jpg","field":"file_0","ssl_url":"https://tmp/a1.jpg"},
                      {"id":"r2","name":"b.jpg","field":"file_1","ssl_url":"https://tmp/b.jpg"}]}
            """#)
        let mapping = try Self.mapper().results(of: status, files: Self.files)
        #expect(mapping.results.map(\.outputPath) == ["/out/thumb/a.jpg", nil, "/out/thumb/b.jpg"])
        #expect(mapping.refusals.map(\.result.remoteID) == ["r1"])
        #expect(mapping.refusals.map(\.reason) == [FailureReason(
            code: .outputCollision, message: "a.jpg of step thumb renders to /out/thumb/a.jpg, which another result of the Assembly took; nothing was overwritten",
            isRetryable: false)])
    }

    @Test func pathsThatAreCanonicallyEquivalentButNotTheSameBytesDoNotCollide() throws {
        let files = [("caf\u{E9}", 0), ("cafe\u{301}", 1)].map { name, index in
            FileRecord(index: index, shardIndex: 0, file: PlannedFile(path: "/in/\(name).jpg", relativePath: "\(name).jpg", size: 1,
                                                                      modifiedNanoseconds: 0), state: .pending, failure: nil)
        }
        #expect(files[0].file.relativePath == files[1].file.relativePath, "Swift's == equates them")
        let status = try Self.status(results: #"""
            {"thumb":[{"id":"r0","name":"x.jpg","ext":"jpg","field":"file_0","ssl_url":"https://tmp/0.jpg"},
                      {"id":"r1","name":"x.jpg","ext":"jpg","field":"file_1","ssl_url":"https://tmp/1.jpg"}]}
            """#)
        let mapping = try Self.mapper().results(of: status, files: files)
        #expect(mapping.refusals.isEmpty)
        #expect(mapping.results.compactMap(\.outputPath).map { Array($0.utf8) }
            == [Array("/out/thumb/caf\u{E9}.jpg".utf8), Array("/out/thumb/cafe\u{301}.jpg".utf8)])
    }

    @Test(arguments: [
        ("http://tmp.test/a.jpg", "its URL is not https"),
        ("ftp://tmp.test/a.jpg", "its URL is not https"),
        ("https://user:secret@tmp.test/a.jpg", "its URL carries credentials"),
        ("https://169.254.169.254/latest/meta-data/", "its URL names 169.254.169.254, a cloud metadata address"),
        ("https://[fe80::1]/a.jpg", "its URL names fe80::1, a link-local address"),
        ("https://[::ffff:169.254.0.1]:8443/a.jpg", "its URL names ::ffff:169.254.0.1, a link-local address"),
        ("https://100.100.100.200/a.jpg", "its URL names 100.100.100.200, a cloud metadata address"),
        ("https://[fd00:ec2::254]/a.jpg", "its URL names fd00:ec2::254, a cloud metadata address"),
        ("https://tmp.test/a b.jpg", "its URL holds a space, a control or a non-ASCII character"),
    ])
    func aResultWhoseURLIsRefusedIsRecordedAndFailsItsFile(url: String, problem: String) throws {
        let status = try Self.status(results: #"{"thumb":[{"id":"r0","name":"a.jpg","field":"file_0","ssl_url":"\#(url)"}]}"#)
        let mapping = try Self.mapper().results(of: status, files: Self.files)
        #expect(mapping.results.map(\.delivery) == [.recorded])
        #expect(mapping.refusals.map(\.reason) == [FailureReason(code: .resultURLRefused, message: "a.jpg of step thumb is not fetched: \(problem)",
                                                                  isRetryable: false)])
        #expect(mapping.results.allSatisfy { !($0.url ?? "").contains("secret") }, "no credentials are kept")
    }

    /// A loopback endpoint's results come from its own origin alone; a public endpoint's from public https hosts, any of them.
    @Test(arguments: [
        ("http://127.0.0.1:9000", "http://127.0.0.1:9000/files/a.jpg", nil),
        ("http://localhost:9000", "http://127.0.0.1:9000/files/a.jpg", nil),
        ("http://127.0.0.1:9000/", "http://[::1]:9000/files/a.jpg", nil),
        ("http://127.0.0.1:9000", "http://127.0.0.1:9001/files/a.jpg", "its URL is not of the loopback endpoint's origin http://127.0.0.1:9000"),
        ("http://127.0.0.1:9000", "https://127.0.0.1:9000/files/a.jpg", "its URL is not of the loopback endpoint's origin http://127.0.0.1:9000"),
        ("http://127.0.0.1:9000", "http://10.0.0.5:9000/files/a.jpg", "its URL is not of the loopback endpoint's origin http://127.0.0.1:9000"),
        ("http://127.0.0.1:9000", "https://tmp.transloadit.net/a.jpg", "its URL is not of the loopback endpoint's origin http://127.0.0.1:9000"),
        ("http://127.0.0.1", "http://127.0.0.1:80/a.jpg", nil),
        ("https://api2.transloadit.com", "https://tmp-eu.transloadit.net/a.jpg", nil),
        ("https://api2.transloadit.com", "https://s3.amazonaws.com/bucket/a.jpg?X-Amz-Signature=1", nil),
        ("https://api2.transloadit.com", "https://tmp-eu.transloadit.net/a.jpg?s=1@2", nil),
        ("https://api2.transloadit.com", "http://tmp.transloadit.net/a.jpg", "its URL is not https"),
        ("https://api2.transloadit.com", "https://127.0.0.1:9000/a.jpg", "its URL names 127.0.0.1, this machine"),
        ("https://api2.transloadit.com", "https://localhost/a.jpg", "its URL names localhost, this machine"),
        ("https://api2.transloadit.com", "https://[::1]/a.jpg", "its URL names [::1], this machine"),
        ("https://api2.transloadit.com", "https://0.0.0.0/a.jpg", "its URL names 0.0.0.0, an unspecified address"),
        ("https://api2.transloadit.com", "https://10.1.2.3/a.jpg", "its URL names 10.1.2.3, a private address (RFC 1918)"),
        ("https://api2.transloadit.com", "https://172.31.0.9/a.jpg", "its URL names 172.31.0.9, a private address (RFC 1918)"),
        ("https://api2.transloadit.com", "https://192.168.1.1/a.jpg", "its URL names 192.168.1.1, a private address (RFC 1918)"),
        ("https://api2.transloadit.com", "https://172.32.0.1/a.jpg", nil),
        ("https://api2.transloadit.com", "https://100.64.0.1/a.jpg", "its URL names 100.64.0.1, a shared address (carrier-grade NAT)"),
        ("https://api2.transloadit.com", "https://[fd12::1]/a.jpg", "its URL names fd12::1, a unique local address"),
        ("https://api2.transloadit.com", "https://[64:ff9b::a00:1]/a.jpg", "its URL names 64:ff9b::a00:1, a private address (RFC 1918)"),
        ("http://10.0.0.5:9000", "http://10.0.0.5:9000/a.jpg", "its URL is not https"),
        ("http://10.0.0.5:9000", "https://10.0.0.5:9000/a.jpg", "its URL names 10.0.0.5, a private address (RFC 1918)"),
    ] as [(String, String, String?)])
    func resultsComeFromWhereTheEndpointsAnswersMayLead(endpoint: String, url: String, problem: String?) {
        #expect(ResultURLRule(endpoint: endpoint).problem(with: url) == problem)
    }

    @Test func credentialsAreLeftOutOfWhatIsStored() {
        #expect(URLText.withoutCredentials("https://u:p@host/x@y") == "https://host/x@y")
    }

    /// The connections a download may make: a loopback endpoint's port on this machine; a public endpoint's, public addresses.
    @Test(arguments: [
        (PeerRule.loopback(port: 9000), "127.0.0.1", 9000, nil),
        (.loopback(port: 9000), "::1", 9000, nil),
        (.loopback(port: 9000), "127.0.0.1", 9001, "port 9001 of 127.0.0.1, not the loopback endpoint's own origin (its port 9000)"),
        (.loopback(port: 9000), "169.254.169.254", 9000, "port 9000 of 169.254.169.254, not the loopback endpoint's own origin (its port 9000)"),
        (.publicOnly, "93.184.215.14", 443, nil),
        (.publicOnly, "2606:2800:21f:cb07:6820:80da:af6b:8b2c", 443, nil),
        (.publicOnly, "127.0.0.1", 443, "127.0.0.1, a loopback address"),
        (.publicOnly, "::ffff:192.168.0.7", 443, "::ffff:192.168.0.7, a private address (RFC 1918)"),
        (.publicOnly, "100.100.100.200", 80, "100.100.100.200, a cloud metadata address"),
        (.publicOnly, "fe80::1", 443, "fe80::1, a link-local address"),
        (.any, "169.254.169.254", 80, nil),
        (.notLinkLocal, "127.0.0.1", 9000, nil),
        (.notLinkLocal, "10.1.2.3", 80, nil),
        (.notLinkLocal, "93.184.215.14", 443, nil),
        (.notLinkLocal, "169.254.169.254", 80, "169.254.169.254, a cloud metadata address"),
        (.notLinkLocal, "::ffff:169.254.0.1", 80, "::ffff:169.254.0.1, a link-local address"),
        (.notLinkLocal, "fd00:ec2::254", 80, "fd00:ec2::254, a cloud metadata address"),
    ] as [(PeerRule, String, Int, String?)])
    func aConnectionGoesOnlyWhereItsRuleLetsIt(rule: PeerRule, address: String, port: Int, refusal: String?) throws {
        #expect(rule.refusal(of: try #require(PeerAddress(address)), port: port) == refusal)
        #expect(rule.refusal(ofHost: address.contains(":") ? "[\(address)]" : address, port: port) == refusal)
    }

    @Test(arguments: [#""name":"a.","ext":"""#, #""name":"a.j\u0000pg","ext":"j\u0000pg""#, #""name":"a.jpg/x","ext":"jpg/x""#,
                      #""name":"a\n\u001b[2J.jpg","ext":"jpg\n""#, #""name":"..","ext":"..""#])
    func whatTheServiceCallsAResultOfOneInputNeverReachesItsPath(naming: String) throws {
        let layouts = ["{step}/{relpath}.{ext}": "/out/thumb/b.png", "{step}/{name}": "/out/thumb/b.png", "{dir}/{stem}-{step}.{ext}": "/out/b-thumb.png"]
        for (layout, expected) in layouts {
            let output = OutputSettings(dir: "/out", layout: try OutputLayout(layout), formats: ["thumb": "png"])
            let mapper = ResultMapper(runID: try RunID(parsing: "20261130T210501Z-3f9a2c"), shardIndex: 0, output: output,
                                      urls: ResultURLRule(endpoint: "https://api2.transloadit.com"))
            let status = try Self.status(results: #"{"thumb":[{"id":"r0",\#(naming),"field":"file_1","ssl_url":"https://tmp/r0"}]}"#)
            let path = try #require(mapper.results(of: status, files: Self.files).results.first?.outputPath)
            let planned = ResultMapper.outputPath(output, run: mapper.runID, shard: 0, step: "thumb", from: .input(Self.files[1].file))
            #expect(path == planned, "\(layout): the run writes the path the plan checked")
            #expect(path == expected, "\(layout)")
        }
    }

    @Test func aResultWhosePathNoFileCanHaveFailsItsFilesAlone() throws {
        let output = OutputSettings(dir: "/out", layout: try OutputLayout("{step}/{name}-" + String(repeating: "x", count: 80)))
        let mapper = ResultMapper(runID: try RunID(parsing: "20261130T210501Z-3f9a2c"), shardIndex: 0, output: output,
                                  urls: ResultURLRule(endpoint: "https://api2.transloadit.com"))
        let name = String(repeating: "z", count: 190) + ".zip"
        let status = try Self.status(results: #"{"zip":[{"id":"z","name":"\#(name)","original_id":["u0","u1"],"ssl_url":"https://tmp/z"}]}"#)
        let mapping = mapper.results(of: status, files: Self.files)
        #expect(mapping.results.map(\.delivery) == [.recorded])
        #expect(mapping.refusals.map(\.reason.code) == [.outputNameTooLong])
        #expect(mapping.refusals.first?.result.source == .several([0, 1]), "both its files fail, each alone")
    }

    @Test func inputExtIsTheInputsOwnExtension() throws {
        let output = OutputSettings(dir: "/out", layout: try OutputLayout("{step}/{relpath}.{input_ext}.{ext}"), formats: ["thumb": "jpg"])
        let file = PlannedFile(path: "/in/a/photo.png", relativePath: "a/photo.png", size: 1, modifiedNanoseconds: 0)
        #expect(ResultMapper.outputPath(output, run: try RunID(parsing: "20261130T210501Z-3f9a2c"), shard: 0, step: "thumb", from: .input(file))
            == "/out/thumb/a/photo.png.jpg")
    }

    @Test func aResultOfSeveralInputsGetsOneSafeNameFromTheService() throws {
        let output = OutputSettings(dir: "/out", layout: try OutputLayout("{step}/{name}"), formats: [:])
        let cases: [(name: String, ext: String?, expected: String)] = [
            ("../../etc/passwd", nil, "/out/zip/.._.._etc_passwd"),
            ("all.zip/x", "zip", "/out/zip/all.zip"),
            ("..", nil, "/out/zip/_"),
            ("a\u{0}b.zip", nil, "/out/zip/a_b.zip"),
            (String(repeating: "é", count: 300) + ".zip", "zip", "/out/zip/" + String(repeating: "é", count: 100) + ".zip"),
        ]
        for (name, ext, expected) in cases {
            #expect(ResultMapper.outputPath(output, run: try RunID(parsing: "20261130T210501Z-3f9a2c"), shard: 0, step: "zip",
                                            from: .named(name, ext: ext)) == expected, "\(name.debugDescription)")
        }
    }

    @Test func exportResultsAreRecordedAndOthersFollowTheSelection() throws {
        let status = try Self.status(results: #"""
            {"thumb":[{"id":"r0","name":"a.jpg","field":"file_0","ssl_url":"https://tmp-eu.transloadit.net/a.jpg"}],
             "stored":[{"id":"r1","name":"a.jpg","field":"file_0","url":"https://bucket.s3.amazonaws.com/a.jpg","is_temp_url":false}],
             "medium":[{"id":"r2","name":"a.jpg","field":"file_0","ssl_url":"https://tmp-eu.transloadit.net/m.jpg"}],
             "lost":[{"id":"r3","name":"a.jpg","field":"file_0"}]}
            """#)
        let selection = ResultSelection(downloaded: ["thumb", "lost"], exported: ["stored"])
        let results = try Self.mapper(selection).results(of: status, files: Self.files).results
        #expect(results.map(\.step) == ["lost", "medium", "stored", "thumb"])
        #expect(results.map(\.delivery) == [.recorded, .recorded, .exported, .download(to: "/out/thumb/a.jpg")])
        #expect(results.map(\.isTemporary) == [false, true, false, true])
    }

    @Test(arguments: [
        ("/s3/store", true), ("/gcs/store", true), ("/youtube/store", true), ("/cloudflare/store", true),
        ("/image/resize", false), ("/s3/import", false), ("/store", false), ("s3/store", false), ("/a/b/store", false),
    ])
    func exportRobotsAreThoseThatStore(robot: String, exports: Bool) {
        #expect(ResultSelection.isExportRobot(robot) == exports)
    }

    @Test func theDefaultSelectionLeavesExportStepsOutAndATemplateDownloadsAll() throws {
        let steps = Recipe.steps(.object([
            "thumb": .object(["robot": .string("/image/resize")]),
            "store": .object(["robot": .string("/s3/store"), "use": .string("thumb")]),
        ]))
        #expect(ResultSelection.defaults(for: steps) == ResultSelection(downloaded: ["thumb"], exported: ["store"]))
        #expect(ResultSelection.defaults(for: .template(id: "t", fields: [:])) == ResultSelection(downloaded: nil, exported: []))
        let resize = ResultSelection.defaults(for: .resize(ResizeSettings(width: 10, height: nil, strategy: .fit, format: nil,
                                                                         quality: nil, background: nil, zoom: true)))
        #expect(resize.delivery(ofStep: ResizeSettings.stepName) == .download)
    }

    @Test(arguments: [(404, true, Retryability.StorageRefusal.gone), (404, false, .gone), (403, true, .gone), (410, true, .gone),
                      (403, false, .private), (401, false, .private), (401, true, .private)])
    func whatStoragesRefusalsMean(status: Int, temporary: Bool, meaning: Retryability.StorageRefusal) {
        #expect(Retryability.storageRefusal(status: status, temporary: temporary) == meaning)
    }

    @Test func otherDownloadStatusesMeanNeitherGoneNorPrivate() {
        #expect(Retryability.storageRefusal(status: 410, temporary: false) == nil)
        #expect(Retryability.storageRefusal(status: 503, temporary: true) == nil)
    }
}
