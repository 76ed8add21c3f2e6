import Foundation
import HTTPMessages
import HTTPServer
import Synchronization

/// A loopback origin the import tests fetch from, written for them: each path (percent-decoded) answers as its entry says.
final class ImportOrigin: Sendable {
    /// The paths it was asked for, decoded, in order.
    private final class Asked: Sendable {
        let paths = Mutex<[String]>([])
    }

    private let server: HTTPServer
    private let asked = Asked()

    /// Serves `answers` by decoded path (`/fotos/ü/c.png`); any other path is 404. The first answer of a path
    /// `delayingFirst` names comes that much later (until the origin stops), the later ones at once.
    init(_ answers: [String: HTTPResponse], delayingFirst delays: [String: Duration] = [:]) throws {
        let asked = self.asked
        server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            let path = "/" + request.pathSegments.joined(separator: "/")
            let first = asked.paths.withLock { paths in
                defer { paths.append(path) }
                return !paths.contains(path)
            }
            var answer = answers[path] ?? .notFound
            if first, let delay = delays[path] { answer.delay = delay }
            return .respond(answer)
        }
    }

    deinit {
        server.stop()
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { server.baseURL }
    var port: UInt16 { server.port }

    /// The decoded paths asked for so far.
    var paths: [String] { asked.paths.withLock { $0 } }

    /// Waits until `count` paths were asked for, looking every 10 ms for at most `limit`: a test that stops a service
    /// mid-import waits for the import to be under way, however slow the machine, not for a guessed time.
    func waitForPaths(_ count: Int, within limit: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + limit
        while paths.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A 200 with `bytes` as `contentType`.
    static func body(_ bytes: [UInt8], contentType: String = "application/octet-stream") -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: .bytes(bytes))
    }

    /// A 200 that announces all of `bytes` and sends only `sent` of them before closing.
    static func cut(_ bytes: [UInt8], after sent: UInt64) -> HTTPResponse {
        var response = body(bytes)
        response.fault = .dropAfterBodyBytes(sent)
        return response
    }
}
