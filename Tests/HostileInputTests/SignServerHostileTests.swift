import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// Hostile requests against `assemblyline sign-server`, one fresh server per case, each case followed by the health checks.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SignServerHostileTests {
    @Test(arguments: cases)
    func survives(_ hostile: HostileCase) async throws {
        let server = try await HostileServer(.signServer)
        try hostile.run(server)
        try server.expectHealthy(after: hostile.name)
    }

    /// A `POST` to `target` with the server's token (or `authorization` lines) and `body`.
    static func sign(_ server: HostileServer, target: String = "/sign", authorization: String? = nil, body: String) -> [UInt8] {
        let auth = authorization ?? "Authorization: Bearer \(server.token)\r\n"
        return Array("POST \(target) HTTP/1.1\r\nHost: h\r\n\(auth)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
    }

    /// `{"params": ...}` for a Template request whose `album` field is `album`.
    static func body(_ server: HostileServer, album: String = "summer") -> String {
        let params = AssemblyParams(
            key: server.key, expiresIn: .seconds(600), instructions: .template(id: "tpl", fields: ["album": .string(album)])
        ).serialized(now: Date())
        return JSONValue.object(["params": .string(params)]).serialized
    }

    static let cases: [HostileCase] = [
        .raw("a policy-allowed request is signed", { sign($0, body: body($0)) }, statuses: [200], bodyContains: "sha384:"),
        .raw("a trailing slash is another route", { sign($0, target: "/sign/", body: body($0)) }, statuses: [404]),
        .raw("a doubled slash is another route", { sign($0, target: "//sign", body: body($0)) }, statuses: [404]),
        .raw("a query makes another route", { sign($0, target: "/sign?x=1", body: body($0)) }, statuses: [404]),
        .raw("two Authorization headers", { server in
            sign(server, authorization: "Authorization: Bearer \(server.token)\r\nAuthorization: Bearer other\r\n", body: body(server))
        }, statuses: [400], bodyContains: "Authorization appears more than once"),
        .raw("an Authorization header folded over two lines", { server in
            sign(server, authorization: "Authorization: Bearer\r\n \(server.token)\r\n", body: body(server))
        }, statuses: [400]),
        .raw("a space before the Authorization colon", { server in
            sign(server, authorization: "Authorization : Bearer \(server.token)\r\n", body: body(server))
        }, statuses: [400]),
        .raw("a NUL byte after /sign", { server in
            Array("POST /sign\u{0}/x HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(server.token)\r\nContent-Length: 0\r\n\r\n".utf8)
        }, statuses: [400]),
        .raw("a body one byte over 64 KiB", { sign($0, body: String(repeating: " ", count: (64 << 10) + 1)) }, statuses: [413]),
        .raw("Content-Length 2^63", { server in
            Array("POST /sign HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(server.token)\r\nContent-Length: 9223372036854775808\r\n\r\n".utf8)
        }, statuses: [413]),
        .raw("a JSON nesting bomb", { sign($0, body: String(repeating: "[", count: 60_000)) }, statuses: [400]),
        .raw("params that are not a string", { sign($0, body: #"{"params":{"auth":{}}}"#) }, statuses: [400]),
        .raw("an unknown token", { sign($0, authorization: "Authorization: Bearer nobody\r\n", body: body($0)) }, statuses: [401]),
        .raw("GET instead of POST", "GET /sign HTTP/1.1\r\nHost: h\r\n\r\n", statuses: [405]),
        .raw("a field value off its pattern", { sign($0, body: body($0, album: "../etc")) }, statuses: [403], bodyContains: "FIELD_VALUE_NOT_ALLOWED"),
    ]

    /// A pattern that makes a backtracking engine take exponential time is matched at once, and SIGTERM stops the server quickly.
    @Test func aBacktrackingPatternCannotHoldACore() async throws {
        let server = try await HostileServer(.signServer, fieldPatterns: ["album": "(a+)+b"])
        for length in [31, 5_000] {
            let reply = try server.exchange(SignServerHostileTests.sign(
                server, body: SignServerHostileTests.body(server, album: String(repeating: "a", count: length) + "c")))
            #expect(reply.status == 403, "\(reply.text.prefix(200))")
            try server.expectHealthy(after: "(a+)+b against \(length) a's")
        }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(server.child.stop() == 0)
        #expect(start.duration(to: clock.now) < .seconds(6))
    }
}
