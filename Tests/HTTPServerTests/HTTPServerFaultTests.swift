import Foundation
import HTTPMessages
import HTTPServer
import TestSupport
import Testing

extension HTTPServerSuite {
    @Suite struct HTTPServerFaultTests {
        let directory: TemporaryDirectory
        let report = Observed(SinkReport())
        let server: HTTPServer

        init() throws {
            directory = try TemporaryDirectory()
            let directory = directory, report = report
            var router = HTTPRouter()
            router.add(.get, "/truncated") { _, _ in
                .respond(HTTPResponse(body: .bytes(Array(repeating: 65, count: 100_000))).truncated(afterBodyBytes: 1000))
            }
            router.add(.get, "/truncated-file") { _, _ in
                do {
                    let path = directory.file("big.bin")
                    try writeRandomFile(path, size: 1 << 20, seed: 1)
                    return .respond(.file(try HTTPFile(path: path)).truncated(afterBodyBytes: 70_000))
                } catch {
                    return .respond(.text("\(error)", status: 500))
                }
            }
            router.add(.get, "/drop") { _, _ in .respond(.dropConnection()) }
            router.add(.get, "/slow") { _, _ in .respond(.text("slow\n").delayed(by: .milliseconds(1500))) }
            router.add(.get, "/very-slow") { _, _ in .respond(.text("very slow\n").delayed(by: .seconds(30))) }
            router.add(.get, "/fast") { _, _ in .respond(.text("fast\n")) }
            router.add(.post, "/upload") { _, _ in
                .stream(FileSink(path: directory.file("partial.bin"), report: report))
            }
            server = try HTTPServer(configuration: .init(), handler: router)
        }

        @Test func truncatedBodyIsAnErrorForTheClient() async throws {
            let fromMemory = try await curl(["-o", "/dev/null", "-w", "%{size_download}", "\(server.baseURL)/truncated"])
            #expect(fromMemory.status == 18)  // CURLE_PARTIAL_FILE
            #expect(fromMemory.output == "1000")
            let fromFile = try await curl(["-o", "/dev/null", "-w", "%{size_download}", "\(server.baseURL)/truncated-file"])
            #expect(fromFile.status == 18)
            #expect(fromFile.output == "70000")
            #expect(await eventually { server.statistics.requestsFailed == 2 })
        }

        @Test func droppedConnectionGivesAnEmptyReply() async throws {
            let result = try await curl(["\(server.baseURL)/drop"])
            #expect(result.status == 52)  // CURLE_GOT_NOTHING
        }

        @Test func aSlowAnswerHoldsUpOnlyItsOwnConnection() async throws {
            let (server, output) = (server, directory.file("slow.txt"))
            // Timed on a thread of its own, so that the times are the server's and not the test pool's.
            let (started, fast, fastTook, slowTook) = try await offThePool {
                let clock = ContinuousClock()
                let start = clock.now
                let slow = Process()
                slow.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                slow.arguments = ["-sS", "-o", output, "\(server.baseURL)/slow"]
                try ChildLaunch.run(slow)
                var started = false
                while !started, start.duration(to: clock.now) < .seconds(5) {
                    started = server.statistics.requestsStarted == 1
                    usleep(10_000)
                }
                let fast = try curlBlocking(["\(server.baseURL)/fast"])
                let fastDone = clock.now
                slow.waitUntilEnded()
                return (started, fast, start.duration(to: fastDone), start.duration(to: clock.now))
            }
            #expect(started)
            #expect(fast.output == "fast\n")
            #expect(fastTook < .milliseconds(1200))
            #expect(slowTook >= .milliseconds(1500))
            #expect(try String(contentsOfFile: directory.file("slow.txt"), encoding: .utf8) == "slow\n")
        }

        @Test func clientAbortMidUploadReachesTheSink() async throws {
            let head = "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1000000\r\n\r\n"
            _ = try sendRaw(Array(head.utf8) + Array(repeating: 7, count: 5000), to: server.port)
            #expect(await eventually { report.current.aborted != nil })
            let seen = report.current
            #expect(seen.aborted == .clientDisconnected)
            #expect(seen.bytes == 5000 && !seen.finished)
            #expect(!FileManager.default.fileExists(atPath: directory.file("partial.bin")))
            #expect(await eventually { server.statistics.requestsFailed == 1 && server.statistics.requestsInFlight == 0 })
        }

        @Test func malformedRequestIsRefusedWithoutLeaking() async throws {
            let reply = try sendRaw(Array("GET /fast HTTP/1.1\r\nno colon here\r\n\r\n".utf8), to: server.port, readReply: true)
            #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
            #expect(await eventually { server.statistics.requestsInFlight == 0 })
        }

        @Test func stopEndsWaitingAnswersAndUnfinishedUploads() async throws {
            let waiting = Process()
            waiting.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            waiting.arguments = ["-sS", "-o", "/dev/null", "\(server.baseURL)/very-slow"]
            waiting.standardError = FileHandle.nullDevice
            try ChildLaunch.run(waiting)
            let head = "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1000000\r\n\r\n"
            let port = server.port
            let socket = Thread { _ = try? sendRaw(Array(head.utf8) + [1, 2, 3], to: port, readReply: true, halfClose: false) }
            socket.start()
            #expect(await eventually { server.statistics.requestsStarted == 2 && report.current.bytes == 3 })
            let clock = ContinuousClock()
            let stopping = clock.measure { server.stop() }
            #expect(stopping < .seconds(2))
            await waiting.ended()
            #expect(waiting.terminationStatus != 0)
            #expect(report.current.aborted == .serverStopped)
            let refused = try await curl(["\(server.baseURL)/fast"])
            #expect(refused.status == 7)  // CURLE_COULDNT_CONNECT
            server.stop()
        }

        @Test func refusesABusyPortAndABadHost() async throws {
            #expect {
                _ = try HTTPServer(configuration: .init(port: server.port)) { _ in .respond(.notFound) }
            } throws: { error in
                guard case let .startFailed(address, reason) = error as? HTTPServerError else { return false }
                return address == "127.0.0.1:\(server.port)" && !reason.isEmpty
            }
            #expect(throws: HTTPServerError.invalidHost("example.com")) {
                _ = try HTTPServer(configuration: .init(host: "example.com")) { _ in .respond(.notFound) }
            }
        }
    }
}
