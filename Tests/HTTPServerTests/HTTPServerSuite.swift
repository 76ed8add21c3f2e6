import Testing

/// The HTTP server's suites, one test at a time: they talk to servers over blocking sockets and time
/// their deadlines, and would otherwise hold every thread of the test pool at once.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HTTPServerSuite {}
