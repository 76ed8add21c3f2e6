import AssemblyLine
import Foundation
import HTTPMessages
import Synchronization
import TestSupport
import Testing

/// The watch wakes a waiting poll on the stream's word or its end, and on nothing else.
@Suite struct AssemblyUpdateWatchTests {
    static let streamURL = "https://api-m1.test/ws?assembly=0123456789abcdef0123456789abcdef"

    /// A clock whose waits end only when their task is cancelled: a wake can only come from the stream.
    final class StoppedClock: PipelineClock {
        var now: Date { Date(timeIntervalSince1970: 1_800_000_000) }
        let instant = ContinuousClock.now

        func sleep(for duration: Duration) async throws {
            let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    parked.withLock { $0 = continuation }
                    if Task.isCancelled { parked.withLock { $0.take() }?.resume() }
                }
            } onCancel: {
                parked.withLock { $0.take() }?.resume()
            }
            throw CancellationError()
        }
    }

    func watch(answering answer: ScriptedTransport.Answer) -> (AssemblyUpdateWatch, ScriptedTransport) {
        let transport = ScriptedTransport()
        transport.script(.get, "/ws?assembly=") { _ in answer }
        let client = TransloaditClient(transport: transport, endpoint: "https://api.test")
        return (AssemblyUpdateWatch(url: Self.streamURL, client: client), transport)
    }

    static func stream(_ text: String) -> ScriptedTransport.Answer {
        .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Array(text.utf8))
    }

    @Test func assemblyFinishedWakesTheWaitAndTheRequestAsksForTheStream() async throws {
        let (watch, transport) = watch(answering: Self.stream(
            "id: 0123456789abcdef0123456789abcdef\n\nevent: assembly_upload_finished\ndata: {}\n\ndata: assembly_finished\n\n"))
        #expect(try await watch.wait(atMost: .seconds(3_600), clock: StoppedClock()) == .changed)
        let request = try #require(transport.requests.first)
        #expect(request.url == Self.streamURL)
        #expect(request.headers["Accept"] == "text/event-stream")
    }

    @Test func anErrorWakesTheWait() async throws {
        let (watch, _) = watch(answering: Self.stream("event: assembly_error\ndata: {\"error\":\"IMAGE_RESIZE_ERROR\"}\n\n"))
        #expect(try await watch.wait(atMost: .seconds(3_600), clock: StoppedClock()) == .changed)
    }

    @Test func aResultWakesTheWaitWithItBeforeTheStreamsEnd() async throws {
        let (watch, _) = watch(answering: Self.stream(
            "event: assembly_result_finished\ndata: [\"thumb\",{\"id\":\"r1\",\"name\":\"a.jpg\",\"field\":\"file_0\"}]\n\n"
                + "event: assembly_result_finished\ndata: not json\n\n"))
        guard case let .announced(results) = try await watch.wait(atMost: .seconds(3_600), clock: StoppedClock()) else {
            Issue.record("the result did not wake the wait")
            return
        }
        #expect(results.map { "\($0.step) \($0.file.name ?? "") \($0.file.field ?? "")" } == ["thumb a.jpg file_0"])
        #expect(try await watch.wait(atMost: .seconds(3_600), clock: StoppedClock()) == .streamEnded(reason: "the service ended it"))
    }

    @Test func progressAloneDoesNotWakeButTheStreamsEndDoes() async throws {
        let (watch, _) = watch(answering: Self.stream(
            "data: assembly_uploading_finished\n\nevent: assembly_execution_progress\ndata: {\"progress_combined\":50}\n\n: keep-alive\n\n"))
        #expect(try await watch.wait(atMost: .seconds(3_600), clock: StoppedClock()) == .streamEnded(reason: "the service ended it"))
        #expect(!watch.isLive)
    }

    @Test func aStreamThatCannotBeOpenedEndsAtOnce() async throws {
        let (refused, _) = watch(answering: .json(404, #"{"error":"SERVER_404"}"#))
        #expect(try await refused.wait(atMost: .seconds(3_600), clock: StoppedClock()) == .streamEnded(reason: "HTTP 404"))
        let (unreachable, _) = watch(answering: .failure(.connect(endpoint: "api-m1.test:443", reason: "refused")))
        guard case .streamEnded? = try? await unreachable.wait(atMost: .seconds(3_600), clock: StoppedClock()) else {
            Issue.record("an unreachable stream did not end the wait")
            return
        }
        #expect(!unreachable.isLive)
    }

    /// A transport whose stream stays open, saying nothing, until its task is cancelled.
    struct SilentTransport: HTTPTransport {
        func send(_ request: HTTPRequestSpec, to destination: HTTPDestination, options: HTTPTransferOptions,
                  progress: TransferProgressHandler?) async throws(TransportError) -> HTTPResponseInfo {
            try? await StoppedClock().sleep(for: .seconds(3_600))
            throw .cancelled(endpoint: "api-m1.test:443")
        }

        func cancelAll() {}
    }

    @Test func withNothingSaidTheWaitLastsItsTimeAndAClosedWatchIsNotLive() async throws {
        let clock = ManualClock()
        let watch = AssemblyUpdateWatch(url: Self.streamURL, client: TransloaditClient(transport: SilentTransport(), endpoint: "https://api.test"))
        #expect(try await watch.wait(atMost: .seconds(4), clock: clock) == .timedOut)
        #expect(clock.waits == [.seconds(4)])
        #expect(watch.isLive)
        watch.close()
        #expect(!watch.isLive)
    }
}
