import Foundation
import Testing

/// One hostile request (or short sequence) against a fresh server, with what it must be answered.
struct HostileCase: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (HostileServer) throws -> Void

    var testDescription: String { name }

    /// A raw request whose answer must have one of `statuses` (nil in the set: the server may close without answering),
    /// and, when given, a body containing `text`.
    static func raw(
        _ name: String, _ request: @escaping @Sendable (HostileServer) throws -> [UInt8], statuses: Set<Int?>,
        bodyContains text: String? = nil, bodyAtMost limit: Int? = nil
    ) -> HostileCase {
        HostileCase(name: name) { server in
            let reply = try server.exchange(try request(server))
            #expect(statuses.contains(reply.status), "\(name): answered \(reply.status.map(String.init) ?? "nothing"): \(reply.text.prefix(300))")
            if let text {
                #expect(reply.body.contains(text), "\(name): body \(reply.body.prefix(300))")
            }
            if let limit {
                #expect(reply.bytes.count <= limit, "\(name): \(reply.bytes.count) bytes answered")
            }
        }
    }

    /// `raw` with a fixed text request.
    static func raw(
        _ name: String, _ request: String, statuses: Set<Int?>, bodyContains text: String? = nil, bodyAtMost limit: Int? = nil
    ) -> HostileCase {
        raw(name, { _ in Array(request.utf8) }, statuses: statuses, bodyContains: text, bodyAtMost: limit)
    }
}
