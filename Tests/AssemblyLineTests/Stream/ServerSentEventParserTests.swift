import AssemblyLine
import Testing

/// The event-stream parser follows the WHATWG rules whatever the chunking of its bytes.
@Suite struct ServerSentEventParserTests {
    static let stream = Array("""
        : connected\r
        event: assembly_upload_finished\r
        data: {"name":"a.png"}\r
        \r
        id: 7\n\
        data: first\n\
        data:second\n\
        \n\
        event: assembly_finished\r\
        data\r\
        \r\
        data: no end yet
        """.utf8)

    static let expected = [
        ServerSentEvent(event: "assembly_upload_finished", data: #"{"name":"a.png"}"#),
        ServerSentEvent(event: "message", data: "first\nsecond", id: "7"),
        ServerSentEvent(event: "assembly_finished", data: "", id: "7"),
    ]

    @Test func eventsAreTheSameInOneChunkAndByteByByte() {
        var whole = ServerSentEventParser()
        #expect(whole.feed(Self.stream) == Self.expected)
        var bytewise = ServerSentEventParser()
        let events = Self.stream.flatMap { bytewise.feed([$0]) }
        #expect(events == Self.expected)
        // The unterminated event is not dispatched until its blank line comes
        #expect(bytewise.feed(Array("\n\n".utf8)) == [ServerSentEvent(data: "no end yet", id: "7")])
    }

    @Test func commentsAndEventsWithoutDataDispatchNothing() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(": keep-alive\n\nevent: x\n\nretry: 100\n\n".utf8)).isEmpty)
    }
}
