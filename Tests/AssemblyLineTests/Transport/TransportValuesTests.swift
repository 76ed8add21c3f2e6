import AssemblyLine
import HTTPMessages
import TestSupport
import Testing

/// Endpoints, error messages, form encoding, and the non-2xx helper.
@Suite struct TransportValuesTests {
    @Test(arguments: [
        ("https://api2.transloadit.com/assemblies?signature=abc", "https://api2.transloadit.com:443", false),
        ("http://127.0.0.1:9442/assemblies/x", "http://127.0.0.1:9442", true),
        ("http://user:secret@Example.COM:8080#frag", "http://example.com:8080", false),
        ("http://localhost/x", "http://localhost:80", true),
        ("http://[::1]:81/", "http://[::1]:81", true),
        ("not a url", "not a url", false),
        ("HTTPS://h.example", "https://h.example:443", false),
        ("http://[::1]/x:9", "http://[::1]:80", true),
        ("https://evil.example/\u{301}@127.0.0.1:80/", "https://evil.example:443", false),
    ])
    func endpoints(url: String, shown: String, loopback: Bool) {
        let endpoint = TransportEndpoint(url: url)
        #expect(endpoint.description == shown)
        #expect(endpoint.isLoopback == loopback)
    }

    @Test(arguments: ["", ":", "://", "a://b://c", "http:/x://y", "::://", "x:/\u{301}/://h", "é://ü", "no scheme"])
    func firstOccurrenceFindsWhatFirstRangeFinds(text: String) {
        for pattern in ["://", ":", "//", "x"] {
            #expect(text.firstOccurrence(of: pattern) == text.firstRange(of: pattern), "\(pattern) in \(text)")
            #expect(text.utf8.firstOccurrence(of: pattern.utf8) == text.utf8.firstRange(of: pattern.utf8), "\(pattern) in \(text), bytes")
        }
        #expect(text.firstOccurrence(of: "") == nil)
    }

    @Test func formEncoding() {
        let encoded = FormURLEncoding.encode([("params", #"{"a":"b c"}"#), ("x&y", "é~*")])
        #expect(encoded == "params=%7B%22a%22%3A%22b+c%22%7D&x%26y=%C3%A9%7E*")
    }

    @Test func formRequestCarriesTheContentType() {
        let request = HTTPRequestSpec.form(.post, "http://127.0.0.1/a", fields: [("k", "v")])
        #expect(request.headers.value(for: "content-type") == "application/x-www-form-urlencoded")
        #expect(request.body == .bytes(Array("k=v".utf8)))
    }

    @Test func nonSuccessBecomesHTTPStatusWithABoundedBody() throws {
        let body = Array(#"{"error":"INVALID_SIGNATURE","message":"The given signature does not match ours."}"#.utf8)
        let response = HTTPResponseInfo(
            status: 403, headers: [], body: .bytes(body), url: "http://127.0.0.1:9/assemblies?signature=s",
            bytesSent: 0, bytesReceived: Int64(body.count), httpVersion: "1.1")
        let error = #expect(throws: TransportError.self) { try response.requireSuccess(bodyLimit: 19) }
        #expect(error == .httpStatus(endpoint: "http://127.0.0.1:9", code: 403, body: #"{"error":"INVALID_S"#))
        #expect(error?.description == #"transport: HTTP 403 from http://127.0.0.1:9: {"error":"INVALID_S"#)
        #expect(error?.isRetryable == false)
        #expect(try response.requireSuccess(accepting: [403]).status == 403)
    }

    @Test func httpStatusBodyFromAFile() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("error.json", Array("line one\nline two".utf8))
        let response = HTTPResponseInfo(
            status: 503, headers: [], body: .file(path: path, length: 17), url: "http://127.0.0.1:9/r",
            bytesSent: 0, bytesReceived: 17, httpVersion: "1.1")
        let error = #expect(throws: TransportError.self) { try response.requireSuccess() }
        #expect(error == .httpStatus(endpoint: "http://127.0.0.1:9", code: 503, body: "line one\nline two"))
        #expect(error?.description == "transport: HTTP 503 from http://127.0.0.1:9: line one\\nline two", "escaped: a body cannot forge a line")
        #expect(error?.isRetryable == true)
    }

    @Test(arguments: [
        (TransportError.connect(endpoint: "http://h:1", reason: "refused"), true),
        (.timeout(endpoint: "http://h:1", reason: "total"), true),
        (.reset(endpoint: "http://h:1", reason: "closed"), true),
        (.httpStatus(endpoint: "http://h:1", code: 429, body: ""), true),
        (.httpStatus(endpoint: "http://h:1", code: 404, body: ""), false),
        (.tls(endpoint: "https://h:1", reason: "verify"), false),
        (.cancelled(endpoint: "http://h:1"), false),
    ])
    func retryability(error: TransportError, retryable: Bool) {
        #expect(error.isRetryable == retryable)
    }

    @Test func headerLookupIsCaseInsensitive() {
        let headers: HTTPHeaders = [HTTPHeader(name: "Set-Cookie", value: "a"), HTTPHeader(name: "set-cookie", value: "b")]
        #expect(headers.value(for: "SET-COOKIE") == "a")
        #expect(headers.values(for: "set-cookie") == ["a", "b"])
        #expect(!headers.contains(name: "Location"))
        #expect(HTTPHeader(name: "X", value: "a\r\nb").isMalformed)
        #expect(!ClientIdentity.header.isMalformed)
        #expect(ClientIdentity.header.description == "Transloadit-Client: assemblyline:\(ClientIdentity.version)")
    }
}
