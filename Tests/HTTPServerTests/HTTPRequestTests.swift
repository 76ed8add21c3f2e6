import HTTPMessages
import HTTPServer
import Testing

extension HTTPServerSuite {
    @Suite struct HTTPRequestTests {
        @Test func splitsAndDecodesTheTarget() async {
            let request = HTTPRequest(method: .get, target: "/a%20b/c%2Fd/e+f/?x=1&y=%7B%7D&x=2#frag")
            #expect(request.path == "/a b/c/d/e+f/")
            #expect(request.pathSegments == ["a b", "c/d", "e+f"])
            #expect(request.query == [FormField(name: "x", value: "1"), FormField(name: "y", value: "{}"), FormField(name: "x", value: "2")])
            #expect(request.queryValue("x") == "1")
        }

        @Test func acceptsAbsoluteFormTargets() async {
            let request = HTTPRequest(method: .get, target: "http://example.com:8080/assemblies/abc?page=2")
            #expect(request.path == "/assemblies/abc")
            #expect(request.queryValue("page") == "2")
            #expect(HTTPRequest(method: .options, target: "*").pathSegments == ["*"])
            #expect(HTTPRequest(method: .get, target: "https://host?q=1").path == "/")
        }

        @Test func readsHeadersCaseInsensitively() async {
            var headers: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=xyz", "content-length": "42"]
            headers.add("X-Many", "1")
            headers.add("x-many", "2")
            let request = HTTPRequest(method: .post, target: "/", headers: headers)
            #expect(request.contentLength == 42)
            #expect(request.contentType?.parameter("boundary") == "xyz")
            #expect(request.headers.values(for: "X-MANY") == ["1", "2"])
            headers.set("X-Many", "3")
            #expect(headers.values(for: "x-many") == ["3"])
            headers.remove("CONTENT-TYPE")
            #expect(headers["content-type"] == nil)
        }

        @Test func routerMatchesPatternsInOrder() async {
            var router = HTTPRouter { request in .text("fallback \(request.path)", status: 404) }
            router.add(.post, "/assemblies") { _, _ in .respond(.text("create")) }
            router.add(.post, "/assemblies/:id") { _, parameters in .respond(.text("create \(parameters["id"] ?? "")")) }
            router.add(.get, "/assemblies/:id/replay") { _, _ in .respond(.text("wrong method")) }
            router.add(.post, "/assemblies/:id/replay") { _, parameters in .respond(.text("replay \(parameters["id"] ?? "")")) }
            router.add(.head, "/resumable/files/*") { _, parameters in .respond(.text("tus \(parameters["*"] ?? "")")) }
            let cases: [(HTTPMethod, String, String)] = [
                (.post, "/assemblies", "create"),
                (.post, "/assemblies/", "create"),
                (.post, "/assemblies/abc", "create abc"),
                (.post, "/assemblies/abc/replay", "replay abc"),
                (.head, "/resumable/files/", "tus "),
                (.head, "/resumable/files/u1/x", "tus u1/x"),
                (.get, "/assemblies", "fallback /assemblies"),
                (.post, "/assemblies/abc/replay/more", "fallback /assemblies/abc/replay/more"),
            ]
            for (method, target, expected) in cases {
                guard case let .respond(response) = router.plan(for: HTTPRequest(method: method, target: target)),
                      case let .bytes(body) = response.body else {
                    Issue.record("\(method) \(target): no immediate response")
                    continue
                }
                #expect(String(decoding: body, as: UTF8.self) == expected, "\(method) \(target)")
            }
        }

        @Test func responseHelpersSetWhatTheySay() async throws {
            let json = HTTPResponse.json(#"{"ok":true}"#, status: 201).delayed(by: .seconds(1)).truncated(afterBodyBytes: 3)
            #expect(json.status == 201)
            #expect(json.headers["content-type"] == "application/json")
            #expect(json.bodyLength == 11)
            #expect(json.delay == .seconds(1))
            #expect(json.fault == .dropAfterBodyBytes(3))
            #expect(HTTPResponse.dropConnection().fault == .dropBeforeResponse)
            #expect(HTTPResponse.empty(status: 204).bodyLength == 0)
        }

        @Test func errorMessagesNameThePlace() async {
            #expect(HTTPServerError.invalidHost("x").description == "listen host 'x': expected a numeric IPv4 or IPv6 address, or localhost")
            #expect(HTTPServerError.fileUnreadable(path: "/nope", errno: 2).description == "response file '/nope': No such file or directory")
            #expect(HTTPServerError.startFailed(address: "127.0.0.1:1", reason: "bind failed").description
                == "could not listen on 127.0.0.1:1: bind failed")
        }
    }
}
