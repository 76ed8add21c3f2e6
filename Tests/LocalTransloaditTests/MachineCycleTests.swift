import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// The service's machines are cycled as production's are: a gone machine refuses connections for
/// good, and the API host answers every Assembly and names the machine that holds it now.
@Suite(.timeLimit(.minutes(3))) struct MachineCycleTests {
    @Test func aCycledMachineIsGoneAndTheAPIHostNamesTheNextOne() async throws {
        let harness = try ServiceHarness { $0.cycleMachinesAfter = 1 }
        let photo = try harness.image("photo.jpg", width: 60, height: 40)
        let created = try await harness.create(params: harness.params(ServiceHarness.resizeSteps(["width": .integer(30)])),
                                               files: [("image", photo)])
        let id = try #require(created["assembly_id"]?.stringValue)
        let first = try #require(created["assembly_ssl_url"]?.stringValue)
        #expect(first == "\(harness.machine)/assemblies/\(id)")
        #expect(try await harness.get(first).status == 200)

        let refused = try #require(await refusal(of: first, from: harness))
        #expect({ if case .connect = refused { true } else { false } }())
        let fromAPI = try await harness.get("/assemblies/\(id)")
        let moved = try #require(fromAPI["assembly_ssl_url"]?.stringValue)
        #expect(moved != first && moved == "\(harness.machine)/assemblies/\(id)")
        #expect(try await harness.get(moved)["assembly_id"]?.stringValue == id)
        #expect(fromAPI["tus_url"]?.stringValue == "\(harness.machine)/resumable/files/")
    }

    @Test func aMachineGoesAwayAfterTheRequestsItWasGiven() async throws {
        let harness = try ServiceHarness { $0.cycleMachinesAfter = 3 }
        let created = try await harness.create(params: harness.params(ServiceHarness.resizeSteps(["width": .integer(30)])))
        let id = try #require(created["assembly_id"]?.stringValue)
        let machine = try #require(created["assembly_ssl_url"]?.stringValue)
        for _ in 0..<3 { #expect(try await harness.get(machine).status == 200) }
        #expect(try await harness.get(machine).status == 503)
        #expect(try await refusal(of: machine, from: harness) != nil)
        #expect(try await harness.get("/assemblies/\(id)")["assembly_ssl_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
    }

    /// Asks a machine until it refuses (it answers 503 while it goes away): the refusal, or nil when none came in two seconds.
    private func refusal(of url: String, from harness: ServiceHarness) async throws -> TransportError? {
        for _ in 0..<200 {
            do { _ = try await harness.get(url) } catch let error as TransportError { return error }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// Temporary files as Transloadit serves them.
@Suite(.timeLimit(.minutes(3))) struct TemporaryFileTests {
    @Test func aTemporaryFileIsServedTenTimesAndRefusedAfter() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("photo.jpg", width: 60, height: 40)
        let done = try await harness.resize([("image", photo)], options: ["width": .integer(30)])
        let result = try #require(done["results"]?["resized"]?.arrayValue?.first)
        let url = try #require(result["ssl_url"]?.stringValue)
        #expect(result["is_temp_url"] == .bool(true) && url.hasPrefix(harness.base))
        for _ in 0..<FileFetchCounter.limit { #expect(try await harness.download(url).response.status == 200) }
        let refused = try await harness.get(url)
        #expect(refused.status == 403 && refused["error"]?.stringValue == "FILE_FETCH_LIMIT_REACHED")
    }
}
