import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import Testing

/// Hostile requests against `assemblyline serve`, one fresh server per case, each case followed by the health checks.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ServeHostileTests {
    static let unknownID = String(repeating: "0", count: 32)
    static let steps: [String: JSONValue] = ["steps": .object([":original": .object(["robot": .string("/upload/handle")])])]

    @Test(arguments: framing + numbers + traversal + multipart + json + tus)
    func survives(_ hostile: HostileCase) async throws {
        let server = try await HostileServer(.serve)
        try hostile.run(server)
        try server.expectHealthy(after: hostile.name)
    }

    // MARK: - Framing

    static let framing: [HostileCase] = [
        .raw("NUL byte in the target", "GET /files/\(unknownID)/\(unknownID)\u{0}/x HTTP/1.1\r\nHost: h\r\n\r\n",
             statuses: [400], bodyContains: "NUL byte"),
        .raw("percent-encoded NUL in the target", "GET /assemblies/%00 HTTP/1.1\r\nHost: h\r\n\r\n", statuses: [400]),
        .raw("space before a header's colon", "GET /assemblies/\(unknownID) HTTP/1.1\r\nHost : h\r\n\r\n", statuses: [400]),
        .raw("obs-fold continuation line", "GET /assemblies/\(unknownID) HTTP/1.1\r\nHost: h\r\nX-A: a\r\n b\r\n\r\n", statuses: [400]),
        .raw("two Authorization headers", "GET /assemblies/\(unknownID) HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n",
             statuses: [400], bodyContains: "Authorization appears more than once"),
        .raw("two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", statuses: [400]),
        .raw("no Host in HTTP/1.1", "GET /assemblies/\(unknownID) HTTP/1.1\r\n\r\n", statuses: [400]),
        .raw("two different Content-Length", "POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde",
             statuses: [400, nil]),
        .raw("Content-Length beside chunked", "POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
             statuses: [400, nil]),
        .raw("a negative Content-Length", "POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", statuses: [400, 413, nil]),
        .raw("a signed Content-Length", "POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\nabcde", statuses: [400, 413, nil]),
        .raw("garbage for a request line", "\u{1}\u{2}GARBAGE\r\n\r\n", statuses: [400, 501, nil]),
        .raw("an HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", statuses: [400, 501, 505, nil]),
        .raw("a header line of 300 KiB", "GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "a", count: 300 << 10))\r\n\r\n",
             statuses: [400, 413, 414, 431, nil]),
        .raw("ten thousand header lines", "GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "X-N: v\r\n", count: 10_000) + "\r\n",
             statuses: [400, 413, 431, nil]),
        .raw("a chunk size that is not hex", "POST /assemblies HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
             statuses: [400, nil]),
        .raw("absolute-form target with dot segments", "GET http://evil/../../assemblies/\(unknownID) HTTP/1.1\r\nHost: h\r\n\r\n",
             statuses: [404]),
        .raw("a 60,000-character Assembly ID", "GET /assemblies/\(String(repeating: "a", count: 60_000)) HTTP/1.1\r\nHost: h\r\n\r\n",
             statuses: [404], bodyContains: "ASSEMBLY_NOT_FOUND", bodyAtMost: 2_000),
        .raw("a 60,000-character Tus-Resumable", "POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: \(String(repeating: "9", count: 60_000))\r\nUpload-Length: 1\r\n\r\n",
             statuses: [412], bodyAtMost: 2_000),
    ]

    // MARK: - Numbers

    /// A tus upload of 100 bytes for a fresh Assembly, and a PATCH head for it with `headers`.
    static func patch(_ server: HostileServer, _ headers: String, firstBytes: Int = 0) throws -> [UInt8] {
        let path = try server.createUpload(assembly: try server.createTusAssembly(), length: 100)
        if firstBytes > 0 {
            let first = try server.exchange(
                "PATCH \(path) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(firstBytes)\r\nConnection: close\r\n\r\n"
                    + String(repeating: "x", count: firstBytes))
            #expect(first.status == 204)
        }
        return Array("PATCH \(path) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\n\(headers)\r\n".utf8)
    }

    /// A signed list request with `members` in its params and `query` appended to the target.
    static func list(_ server: HostileServer, _ members: [String: JSONValue], query: String = "") -> [UInt8] {
        let params = server.params(members)
        let target = "/assemblies?params=\(FormURLEncoding.escape(params))&signature=\(FormURLEncoding.escape(server.signature(params)))\(query)"
        return Array("GET \(target) HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8)
    }

    /// A signed urlencoded creation with `members` over the steps, and `extra` fields.
    static func create(_ server: HostileServer, _ members: [String: JSONValue] = [:], extra: [(String, String)] = []) -> [UInt8] {
        let params = server.params(steps.merging(members) { $1 })
        return Array(HostileServer.form("/assemblies", [("params", params), ("signature", server.signature(params))] + extra).utf8)
    }

    static let numbers: [HostileCase] = [
        .raw("tus PATCH with Content-Length 2^63", { try patch($0, "Upload-Offset: 0\r\nContent-Length: 9223372036854775808\r\n") },
             statuses: [413]),
        .raw("tus PATCH with Content-Length 2^64-1", { try patch($0, "Upload-Offset: 0\r\nContent-Length: 18446744073709551615\r\n") },
             statuses: [413]),
        .raw("tus PATCH with Content-Length 2^64", { try patch($0, "Upload-Offset: 0\r\nContent-Length: 18446744073709551616\r\n") },
             statuses: [400, 413, nil]),
        .raw("tus PATCH whose offset plus length overflows",
             { try patch($0, "Upload-Offset: 10\r\nContent-Length: 9223372036854775800\r\n", firstBytes: 10) }, statuses: [413]),
        .raw("tus Upload-Offset 2^63", { try patch($0, "Upload-Offset: 9223372036854775808\r\nContent-Length: 1\r\n") },
             statuses: [400]),
        .raw("tus Upload-Offset 2^63-1", { try patch($0, "Upload-Offset: 9223372036854775807\r\nContent-Length: 1\r\n") },
             statuses: [409]),
        .raw("tus Upload-Offset -1", { try patch($0, "Upload-Offset: -1\r\nContent-Length: 1\r\n") }, statuses: [400]),
        .raw("tus Upload-Offset 1e3", { try patch($0, "Upload-Offset: 1e3\r\nContent-Length: 1\r\n") }, statuses: [400]),
        .raw("tus Upload-Length 2^63", { server in
            Array("POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 9223372036854775808\r\n\r\n".utf8)
        }, statuses: [400]),
        .raw("tus Upload-Length 2^63-1", "POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 9223372036854775807\r\n\r\n",
             statuses: [413]),
        .raw("tus Upload-Length -1", "POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: -1\r\n\r\n",
             statuses: [400]),
        .raw("list page 2^63-1", { list($0, ["page": .integer(Int64.max)]) }, statuses: [400], bodyContains: "page must be"),
        .raw("list page -1", { list($0, ["page": .integer(-1)]) }, statuses: [400]),
        .raw("list page as a huge numeric string", { list($0, ["page": .string("99999999999999999999999")]) }, statuses: [400]),
        .raw("list pagesize 2^31", { list($0, ["pagesize": .integer(1 << 31)]) }, statuses: [400], bodyContains: "pagesize must be"),
        .raw("list page and pagesize outside the signed params", { list($0, [:], query: "&page=184467440737095517&pagesize=100") },
             statuses: [200], bodyContains: "\"items\""),
        .raw("tus_num_expected_upload_files 2^63-1", { create($0, extra: [("tus_num_expected_upload_files", "9223372036854775807")]) },
             statuses: [400], bodyContains: "ASSEMBLY_INVALID_NUM_EXPECTED_UPLOAD_FILES_PARAM"),
        .raw("tus_num_expected_upload_files -1", { create($0, extra: [("tus_num_expected_upload_files", "-1")]) }, statuses: [400]),
        .raw("resize width 2^63-1", { server in
            create(server, ["steps": .object(["r": .object(["robot": .string("/image/resize"), "use": .string(":original"),
                                                            "width": .integer(Int64.max)])])])
        }, statuses: [400], bodyContains: "IMAGE_RESIZE_VALIDATION"),
        .raw("auth.expires in the year 99999", { server in
            let params = #"{"auth":{"key":"\#(server.key)","expires":"99999/01/01 00:00:00+00:00"},"steps":{":original":{"robot":"/upload/handle"}}}"#
            return Array(HostileServer.form("/assemblies", [("params", params), ("signature", server.signature(params))]).utf8)
        }, statuses: [400]),
    ]

    // MARK: - Traversal

    static let traversal: [HostileCase] = [
        .raw("dot segments under /files", "GET /files/../../etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n", statuses: [404]),
        .raw("encoded dot segments under /files", "GET /files/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n", statuses: [404]),
        .raw("encoded slashes in a file ID", "GET /files/\(unknownID)/..%2f..%2fauth-secret/x HTTP/1.1\r\nHost: h\r\n\r\n", statuses: [404]),
        .raw("a tus upload ID climbing out", "HEAD /resumable/files/..%2f..%2fauth-secret HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\n\r\n",
             statuses: [404]),
        .raw("an Assembly ID climbing out", "DELETE /assemblies/..%2f..%2f\(HostileServer.marker) HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n",
             statuses: [404]),
        .raw("a template ID climbing out", { create($0, ["template_id": .string("../../../etc/passwd")]) }, statuses: [400, 404]),
        HostileCase(name: "a multipart file name climbing out") { server in
            let params = server.params(steps)
            let boundary = "hostileboundary"
            let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"signature\"\r\n\r\n\(server.signature(params))\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../../\(HostileServer.marker).txt\"\r\n\r\nhello\r\n"
                + "--\(boundary)--\r\n"
            let reply = try server.exchange("POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
            #expect(reply.body.contains("\"name\":\"\(HostileServer.marker).txt\""))
        },
        HostileCase(name: "a tus file name climbing out") { server in
            let assembly = try server.createTusAssembly()
            let metadata = "assembly_url \(Data("http://h/assemblies/\(assembly)".utf8).base64EncodedString()),"
                + "filename \(Data("../../../\(HostileServer.marker)".utf8).base64EncodedString())"
            let created = try server.exchange("POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 2\r\n"
                + "Upload-Metadata: \(metadata)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let path = try #require(created.header("Location").flatMap { URL(string: $0)?.path })
            let patched = try server.exchange("PATCH \(path) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                + "Content-Type: application/offset+octet-stream\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
            #expect(patched.status == 204)
        },
    ]

    // MARK: - Multipart and fields

    static func multipart(boundary: String = "b0undary", contentType: String? = nil, _ body: String) -> String {
        "POST /assemblies HTTP/1.1\r\nHost: h\r\nContent-Type: \(contentType ?? "multipart/form-data; boundary=\(boundary)")\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    static func field(_ name: String, _ value: String, boundary: String = "b0undary") -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }

    static let multipart: [HostileCase] = [
        .raw("multipart without a boundary", multipart(contentType: "multipart/form-data", field("a", "b") + "--b0undary--\r\n"), statuses: [400]),
        .raw("a 71-character boundary", multipart(contentType: "multipart/form-data; boundary=\(String(repeating: "b", count: 71))", "x"),
             statuses: [400]),
        .raw("multipart without its closing boundary", multipart(field("a", "b")), statuses: [400]),
        .raw("ten thousand and one parts", multipart(String(repeating: field("a", "b"), count: 10_001) + "--b0undary--\r\n"),
             statuses: [400], bodyContains: "more than 10000 parts"),
        .raw("a part header of 17 KiB", multipart("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Pad: \(String(repeating: "p", count: 17 << 10))\r\n\r\nv\r\n--b0undary--\r\n"),
             statuses: [400]),
        .raw("one field of 300 KiB", multipart(field("big", String(repeating: "f", count: 300 << 10)) + "--b0undary--\r\n"),
             statuses: [400, 413]),
        .raw("fields of 300 KiB in all", multipart((0..<3).map { field("f\($0)", String(repeating: "f", count: 100 << 10)) }.joined() + "--b0undary--\r\n"),
             statuses: [413], bodyContains: "ASSEMBLY_FIELDS_TOO_LARGE"),
        .raw("urlencoded fields of 300 KiB in all", { server in
            Array(HostileServer.form("/assemblies", (0..<3).map { ("f\($0)", String(repeating: "f", count: 100 << 10)) }).utf8)
        }, statuses: [413], bodyContains: "ASSEMBLY_FIELDS_TOO_LARGE"),
        HostileCase(name: "three 20 MiB field requests") { server in
            let before = server.residentBytes()
            for index in 0..<3 {
                let reply = try server.exchange(Array(multipart(field("f\(index)", String(repeating: "z", count: 20 << 20)) + "--b0undary--\r\n").utf8),
                                                timeout: .seconds(30))
                #expect([400, 413, nil].contains(reply.status), "request \(index): \(reply.text.prefix(200))")
            }
            #expect(server.residentBytes() - before < 32 << 20, "RSS grew from \(before >> 20) to \(server.residentBytes() >> 20) MiB")
        },
        .raw("a field that is not UTF-8", { _ in
            Array(multipart("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n").utf8) + [0xFF, 0xFE]
                + Array("\r\n--b0undary--\r\n".utf8)
        }, statuses: [400]),
    ]

    // MARK: - JSON

    static func createWithParams(_ params: String) -> @Sendable (HostileServer) throws -> [UInt8] {
        { server in Array(HostileServer.form("/assemblies", [("params", params), ("signature", server.signature(params))]).utf8) }
    }

    static let json: [HostileCase] = [
        .raw("params nested 100,000 deep", createWithParams(String(repeating: "[", count: 100_000)), statuses: [400]),
        .raw("params with 1e400", { server in
            try createWithParams(#"{"auth":{"key":"\#(server.key)","expires":"2099/01/01 00:00:00+00:00"},"n":1e400}"#)(server)
        }, statuses: [400]),
        .raw("params of 1 MiB", createWithParams("{\"x\":\"\(String(repeating: "s", count: 1 << 20))\"}"), statuses: [400, 413]),
        .raw("params with a lone surrogate", createWithParams(#"{"x":"\ud800"}"#), statuses: [400]),
        .raw("params that are a list", createWithParams("[]"), statuses: [400]),
        .raw("params with a duplicate key", { server in
            let params = #"{"auth":{"key":"\#(server.key)","expires":"2099/01/01 00:00:00+00:00"},"auth":{"key":"x"}}"#
            return try createWithParams(params)(server)
        }, statuses: [400]),
    ]

    // MARK: - tus sequences

    static let tus: [HostileCase] = [
        .raw("PATCH an unknown upload", "PATCH /resumable/files/\(unknownID) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: 1\r\n\r\nx",
             statuses: [404]),
        .raw("PATCH with the wrong content type", { server in
            let path = try server.createUpload(assembly: try server.createTusAssembly(), length: 10)
            return Array("PATCH \(path) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\nx".utf8)
        }, statuses: [415]),
        .raw("PATCH at the wrong offset", { try patch($0, "Upload-Offset: 5\r\nContent-Length: 1\r\n") }, statuses: [409]),
        .raw("PATCH with two Upload-Offset headers", { try patch($0, "Upload-Offset: 0\r\nUpload-Offset: 50\r\nContent-Length: 1\r\n") },
             statuses: [400], bodyContains: "Upload-Offset appears more than once"),
        .raw("PATCH with a malformed checksum", { try patch($0, "Upload-Offset: 0\r\nUpload-Checksum: sha1 !!!\r\nContent-Length: 1\r\n") },
             statuses: [400]),
        .raw("creation with malformed metadata", "POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 1\r\nUpload-Metadata: assembly_url !!!\r\n\r\n",
             statuses: [400]),
        HostileCase(name: "DELETE an upload twice") { server in
            let path = try server.createUpload(assembly: try server.createTusAssembly(), length: 10)
            let request = "DELETE \(path) HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            #expect(try server.exchange(request).status == 204)
            #expect(try server.exchange(request).status == 404)
        },
    ]
}
