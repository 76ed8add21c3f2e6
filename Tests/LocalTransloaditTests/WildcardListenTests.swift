import AssemblyLine
import ConfigFormat
import HTTPMessages
@testable import LocalTransloadit
import Testing

/// A service listening on every address names, in each answer, the host that request came in on.
@Suite(.timeLimit(.minutes(3))) struct WildcardListenTests {
    @Test(arguments: [
        ("api.example.test:9442", "api.example.test"), ("10.0.0.5", "10.0.0.5"), ("[::1]:8080", "[::1]"),
        ("[fe80::1]", "[fe80::1]"), ("127.0.0.2:0", "127.0.0.2"),
    ])
    func aHostFieldGivesItsName(field: String, name: String) {
        #expect(ServiceURLs.hostName(field) == name)
    }

    @Test(arguments: ["", ":9442", "evil.test/path", "a b", "[::1", "[zz::1]:80", "[]", "ünï.test", "host\r\nX: y"])
    func aHostFieldThatIsNoPlainNameIsRefused(field: String) async {
        #expect(ServiceURLs.hostName(field) == nil)
    }

    @Test func onEveryAddressTheURLsNameTheHostEachRequestCameInOn() async throws {
        let harness = try ServiceHarness { $0.host = "0.0.0.0" }
        #expect(harness.service.namesRequestHost && harness.service.listeningURL == "http://0.0.0.0:\(harness.service.port)")
        let photo = try harness.image("photo.jpg", width: 60, height: 40)
        let created = try await harness.create(params: harness.params(ServiceHarness.resizeSteps(["width": .integer(30)])),
                                               files: [("image", photo)])
        let id = try #require(created["assembly_id"]?.stringValue)
        let machinePort = try #require(harness.machine.split(separator: ":").last)
        // The same Assembly asked for through another loopback address names that address, with each listener's port.
        let other = "http://127.0.0.2:\(harness.service.port)"
        let status = try await harness.waitForEnd(id)
        let again = try await harness.get("\(other)/assemblies/\(id)")
        #expect(status["assembly_ssl_url"]?.stringValue == "http://127.0.0.1:\(machinePort)/assemblies/\(id)")
        let moved = try #require(again["assembly_ssl_url"]?.stringValue)
        #expect(moved == "http://127.0.0.2:\(machinePort)/assemblies/\(id)")
        #expect(again["tus_url"]?.stringValue == "http://127.0.0.2:\(machinePort)/resumable/files/")
        #expect(try await harness.get(moved)["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let result = try #require(again["results"]?["resized"]?.arrayValue?.first?["ssl_url"]?.stringValue)
        #expect(result.hasPrefix("\(other)/files/\(id)/"))
        #expect(try await harness.download(result).response.status == 200)
        // A name the request came in by, as behind a DNS name.
        let named = try await harness.send(.get("\(harness.base)/assemblies/\(id)", headers: [HTTPHeader(name: "Host", value: "batch.example.test:8000")]))
        #expect(named["assembly_ssl_url"]?.stringValue == "http://batch.example.test:\(machinePort)/assemblies/\(id)")
    }

    @Test func onOneAddressAForgedHostChangesNothing() async throws {
        let harness = try ServiceHarness()
        #expect(!harness.service.namesRequestHost)
        let created = try await harness.create(params: harness.params(ServiceHarness.resizeSteps(["width": .integer(30)])))
        let id = try #require(created["assembly_id"]?.stringValue)
        let forged = try await harness.send(.get("\(harness.base)/assemblies/\(id)", headers: [HTTPHeader(name: "Host", value: "evil.example.test")]))
        #expect(forged["assembly_ssl_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
    }
}
