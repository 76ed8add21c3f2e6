/// One event of a `text/event-stream`: its type (`message` unless named) and its data lines joined by newlines.
package struct ServerSentEvent: Sendable, Hashable {
    package var event: String
    package var data: String
    package var id: String?

    package init(event: String = "message", data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}
