/// Turns the bytes of a `text/event-stream` into events, as the WHATWG HTML standard's
/// "interpreting an event stream" says, whatever the chunks the bytes arrive in.
///
/// Lines end with CRLF, LF or CR; `:` starts a comment (a keep-alive); a field's value loses one
/// leading space; an empty line dispatches the event gathered so far, if it has data. `retry` is
/// not kept: a client here falls back to polling rather than reconnecting on the stream's terms.
package struct ServerSentEventParser: Sendable {
    /// The most bytes one line may hold; a longer one is cut there (a stream gone wrong must not fill memory).
    package static let maxLineLength = 1 << 20

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var eventType = ""
    private var data: [String] = []
    private var lastID: String?

    package init() {}

    /// The events `bytes` complete.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where lastWasCR:
                lastWasCR = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lastWasCR = byte == UInt8(ascii: "\r")
                if let event = endLine() {
                    events.append(event)
                }
            default:
                lastWasCR = false
                if line.count < Self.maxLineLength {
                    line.append(byte)
                }
            }
        }
        return events
    }

    /// Interprets the line gathered; an empty one dispatches.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") {
            valueStart += 1
        }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch name {
        case "event": eventType = value
        case "data": data.append(value)
        case "id" where !value.contains("\0"): lastID = value
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = []
        }
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(event: eventType.isEmpty ? "message" : eventType, data: data.joined(separator: "\n"), id: lastID)
    }
}
