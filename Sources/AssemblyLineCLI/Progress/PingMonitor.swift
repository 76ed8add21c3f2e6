import AssemblyLine
import CurlTransport
import Digests
import Foundation
import HTTPMessages
import Synchronization

/// The run's pings to a dead-man's switch (healthchecks.io and the services that copy it): `<url>/start`
/// when the run starts, `<url>` when it ends with exit status 0, `<url>/<exit status>` otherwise, each
/// with `rid` (a UUID made from the run ID, so that a start and its end pair up) and the end's body the
/// last lines of the log (``LogTail``).
///
/// Monitoring never fails a run: a URL that cannot be read, a monitor that does not answer within the
/// timeout or answers with an error is a warning, and the exit status stays the run's. The URL may hold
/// the check's secret, so it is read like the other secrets (`monitoring.ping_url_env` or `_file`), and no
/// message names more of it than its scheme, host and port.
final class PingMonitor: Sendable {
    /// How much of the log an end ping carries.
    static let bodyLimit = 10_000

    /// The command's console, keeping the log's tail for the end ping: the run writes through it.
    let console: Console
    private let tail: LogTail
    private let url: String
    /// What a message calls the monitor: the manifest key and where the URL is read from.
    private let name: String
    private let timeout: Duration
    private let transport: any HTTPTransport
    /// The start ping, sent while the run goes on; the end cancels it if it is still under way (the monitor is late,
    /// and the run must not wait for it twice), so that the two arrive in order and the end costs one timeout at most.
    private let starting = Mutex<Task<Void, Never>?>(nil)

    private init(url: String, name: String, timeout: Duration, transport: any HTTPTransport, console: Console) {
        self.url = url
        self.name = name
        self.timeout = timeout
        self.transport = transport
        tail = LogTail(limit: Self.bodyLimit)
        var console = console
        console.tail = tail
        self.console = console
    }

    /// The monitor `settings` name, or nil when they name none or its URL cannot be used (a warning on `console`).
    static func make(_ settings: MonitoringSettings, console: Console, secrets: SecretReader = SecretReader()) -> PingMonitor? {
        guard let source = settings.pingURL else { return nil }
        let name = "the ping URL (\(source))"
        let url: String
        do {
            url = try secrets.read(source)
        } catch {
            console.error("warning: \(name) is unusable: \(error); no pings are sent\n")
            return nil
        }
        guard let parsed = URLComponents(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false
        else {
            console.error("warning: \(name) is not an http or https URL; no pings are sent\n")
            return nil
        }
        return PingMonitor(url: url, name: name, timeout: settings.pingTimeout, transport: CurlTransport(), console: console)
    }

    /// `rid`: a UUID (version 8, RFC 9562) from the run ID's SHA-256, the same in every process that takes the run up.
    static func runUUID(_ run: RunID) -> String {
        var bytes = Array(Digest.sha256(Array("assemblyline run \(run)".utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// Sends `/start` for `run`, without waiting for it.
    func start(_ run: RunID) {
        let task = Task { await self.send("/start", run: run, body: []) }
        starting.withLock { $0 = task }
    }

    /// Sends the end of the run (`run` is nil when it never started) with its exit status and the log's tail, waiting at most the timeout.
    func end(_ run: RunID?, status: ExitStatus) async {
        if let start = starting.withLock({ $0 }) {
            start.cancel()
            await start.value
        }
        await send(status == .success ? "" : "/\(status.rawValue)", run: run, body: Array(tail.text.utf8))
    }

    /// Runs a run's `body`, then pings its end with the exit status it ends with: an error is reported (its message
    /// in the log's tail) before the ping, and the command then ends with its status (``Reported``).
    static func reporting(_ monitor: PingMonitor?, configuration: CommandConfiguration, progress: RunProgress,
                          _ body: () async throws -> Void) async throws {
        guard let monitor else { return try await body() }
        do {
            try await body()
        } catch {
            let status = ErrorReporter.report(error, configuration: configuration, console: monitor.console)
            await monitor.end(progress.startedRunID, status: status)
            throw Reported(status: status)
        }
        await monitor.end(progress.startedRunID, status: .success)
    }

    private func send(_ suffix: String, run: RunID?, body: [UInt8]) async {
        var target = url
        var query = ""
        if let mark = target.firstIndex(of: "?") {
            query = String(target[target.index(after: mark)...])
            target = String(target[..<mark])
        }
        while target.hasSuffix("/") { target.removeLast() }
        let rid = run.map { "rid=" + Self.runUUID($0) }
        let parameters = [query.isEmpty ? nil : query, rid].compactMap { $0 }.joined(separator: "&")
        let request = HTTPRequestSpec(method: .post, url: target + suffix + (parameters.isEmpty ? "" : "?" + parameters),
                                      headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(body))
        var options = HTTPTransferOptions()
        options.connectTimeout = min(timeout, .seconds(5))
        options.totalTimeout = timeout
        options.lowSpeed = nil
        do {
            let response = try await transport.send(request, to: .memory(limit: 4_096), options: options)
            guard (200..<300).contains(response.status) else {
                return console.error("warning: \(name): the monitor answered HTTP \(response.status) to the ping\n")
            }
        } catch {
            guard !Task.isCancelled else { return }
            console.error("warning: \(name): the ping was not delivered (\(error))\n")
        }
    }
}
