import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Slow and idle connections, from another loopback address, cannot lock well-behaved clients out of either server.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SlowClientTests {
    /// Connections from `source` that each send one header byte (or nothing) and then wait.
    static func hold(_ count: Int, to server: HostileServer, from source: String, trickle: Bool) -> [RawConnection] {
        (0..<count).compactMap { _ in
            let connection = RawConnection(port: server.port, source: source)
            if trickle { connection?.send("G") }
            return connection
        }
    }

    /// How many of `connections` the server still keeps open.
    static func stillOpen(_ connections: [RawConnection]) -> Int {
        connections.filter { !$0.isClosedByPeer(within: .milliseconds(5)) }.count
    }

    @Test(arguments: [(HostileServer.Kind.serve, 400, 256, 20), (.signServer, 300, 128, 10)])
    func tricklingClientsAreBoundedAndCut(kind: HostileServer.Kind, attackers: Int, perAddress: Int, headSeconds: Int) async throws {
        let server = try await HostileServer(kind)
        let slow = Self.hold(attackers, to: server, from: "127.0.0.2", trickle: true)
        let idle = Self.hold(attackers, to: server, from: "127.0.0.3", trickle: false)
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.stillOpen(slow) == perAddress)
        #expect(Self.stillOpen(idle) == perAddress)
        try server.expectHealthy(after: "\(attackers) trickling and \(attackers) idle connections")
        for connection in slow { connection.send("E") }
        try await Task.sleep(for: .seconds(headSeconds + 2))
        #expect(Self.stillOpen(slow) == 0, "request heads past their \(headSeconds) s deadline are cut")
        #expect(Self.stillOpen(idle) == 0)
        try server.expectHealthy(after: "the deadline of \(headSeconds) s")
        let refusals = server.child.errors.split(separator: "\n").filter { $0.contains("connection limit") }.count
        #expect(refusals <= 3, "refused connections are logged at a bounded rate, \(refusals) lines")
    }
}
