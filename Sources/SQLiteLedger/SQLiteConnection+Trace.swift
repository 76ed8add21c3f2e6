import CSQLite

/// The function ``SQLiteConnection/traceStatements(_:)`` hands each statement's SQL to.
final class StatementTracer {
    let body: @Sendable (String) -> Void

    init(_ body: @escaping @Sendable (String) -> Void) {
        self.body = body
    }
}

extension SQLiteConnection {
    /// Calls `body` with the SQL text of each statement this connection starts to run, as written (its
    /// parameters unbound): what a test runs `EXPLAIN QUERY PLAN` on. A later call replaces `body`.
    package func traceStatements(_ body: @escaping @Sendable (String) -> Void) {
        let tracer = StatementTracer(body)
        self.tracer = tracer
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue().body(String(cString: sql))
            return 0
        }, Unmanaged.passUnretained(tracer).toOpaque())
    }
}
