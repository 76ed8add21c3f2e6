import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import ImageRobot
@testable import LocalTransloadit
import TestSupport
import Testing

/// `GET <websocket_url>?assembly=<id>`: the Assembly's changes as Server-Sent Events, with production's names and shapes.
@Suite(.timeLimit(.minutes(3))) struct ChangeStreamTests {
    /// A change stream read over libcurl, as the pipeline reads it.
    final class StreamReader: Sendable {
        private let chunks = Recorder<[UInt8]>()
        let finished: Task<Int, any Error>

        init(_ harness: ServiceHarness, url: String) {
            let chunks = self.chunks
            let receiver = HTTPStreamReceiver { chunk in chunks.append(chunk) }
            finished = Task {
                try await harness.transport.send(.get(url, headers: ["Accept": "text/event-stream"]), to: .stream(receiver)).status
            }
        }

        var bytes: [UInt8] { chunks.all.flatMap { $0 } }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        var events: [ServerSentEvent] {
            var parser = ServerSentEventParser()
            return parser.feed(bytes)
        }

        /// Waits until the service has sent the stream's first bytes (it is subscribed then), 10 s at most.
        func awaitOpening() async throws {
            for _ in 0..<400 where chunks.all.isEmpty {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTusAssemblyStreamsItsUploadResultAndEndThenTheStreamEnds() async throws {
        let harness = try ServiceHarness()
        let client = TusTests.Client(harness: harness)
        let image = try harness.image("first.png", width: 120, height: 90, format: .png)
        let assemblyURL = try await client.assembly(expecting: 1)
        let id = try #require(ServiceURLs.assemblyID(inURL: assemblyURL))
        let status = try await harness.get(assemblyURL)
        #expect(status["websocket_url"]?.stringValue == "\(harness.machine)/ws")
        let streamURL = try #require(status["update_stream_url"]?.stringValue)
        #expect(streamURL == "\(harness.machine)/ws?assembly=\(id)")

        let reader = StreamReader(harness, url: streamURL)
        // A request to the same host while the stream opens is answered: the stream's connection is never free
        // again, and a transfer that waits for it hangs (TusRunTests' big upload did, until PIPEWAIT went for plain HTTP)
        #expect(try await harness.get(assemblyURL)["ok"]?.stringValue == "ASSEMBLY_UPLOADING")
        try await reader.awaitOpening()
        #expect(reader.text.hasPrefix("id: \(id)\n\n"))
        let length = try TusTests.size(image)
        let upload = try #require(try await client.create(assemblyURL: assemblyURL, length: length, filename: "first.png").location)
        #expect(try await client.patch(upload, path: image, offset: 0, length: length).status == 204)

        // The service ends the stream after assembly_finished
        #expect(try await reader.finished.value == 200)
        let events = reader.events
        #expect(events.map(\.event) == ["assembly_upload_finished", "message", "assembly_result_finished", "message"], "\(reader.text)")
        #expect(events.map(\.data).last == "assembly_finished")
        #expect(events[1].data == "assembly_uploading_finished")
        let uploaded = try JSONValue(parsing: events[0].data)
        #expect(uploaded["name"]?.stringValue == "first.png")
        guard case let .array(result) = try JSONValue(parsing: events[2].data) else {
            Issue.record("assembly_result_finished is not [step, result]: \(events[2].data)")
            return
        }
        #expect(result.first?.stringValue == "resized")
        let completed = try await harness.get(assemblyURL)
        #expect(result.last?["id"] == completed["results"]?["resized"]?[0]?["id"])
        #expect(harness.service.requestCounts.count("stream") == 1)
    }

    @Test func aLateSubscriberHearsHowTheAssemblyEnded() async throws {
        let harness = try ServiceHarness()
        let text = try harness.textFile("notes.txt", "not an image\n")
        let failed = try await harness.resize([(field: "file", path: text)], options: ["width": .integer(40)])
        let failedID = try #require(failed["assembly_id"]?.stringValue)
        #expect(failed["error"]?.stringValue != nil)
        let errorReader = StreamReader(harness, url: "\(harness.machine)/ws?assembly=\(failedID)")
        #expect(try await errorReader.finished.value == 200)
        let error = try #require(errorReader.events.last)
        #expect(error.event == "assembly_error")
        #expect(try JSONValue(parsing: error.data)["error"] == failed["error"])

        let image = try harness.image("small.jpg", width: 40, height: 30)
        let done = try await harness.resize([(field: "file", path: image)], options: ["width": .integer(20)])
        let doneID = try #require(done["assembly_id"]?.stringValue)
        let doneReader = StreamReader(harness, url: "\(harness.machine)/ws?assembly=\(doneID)")
        #expect(try await doneReader.finished.value == 200)
        #expect(doneReader.text == "id: \(doneID)\n\ndata: assembly_finished\n\n")

        let unknown = try await harness.get("\(harness.machine)/ws?assembly=0123456789abcdef0123456789abcdef")
        #expect(unknown.status == 404)
        #expect(unknown["error"]?.stringValue == "ASSEMBLY_NOT_FOUND")
    }
}
