/// A command of the tool: a type with a configuration, built from parsed values, validated, then run.
protocol CLICommand: Sendable {
    static var configuration: CommandConfiguration { get }

    /// True for a command that may resize images (`serve`, a run on the embedded service): libvips is prepared before its first thread.
    static var resizesImages: Bool { get }

    /// Reads the command's typed values; throws a ``UsageError`` for values of the wrong form.
    init(_ values: ParsedValues) throws

    /// Checks what parsing cannot; throws a ``UsageError``.
    func validate() throws

    /// Does the work; an error says why it could not (``ErrorReporter`` gives its exit status).
    func run(_ context: CommandContext) async throws
}

extension CLICommand {
    static var resizesImages: Bool { false }

    func validate() throws {}
}
