/// `assemblyline manual`: the manual page in roff, for `man` (`assemblyline manual > /usr/local/share/man/man1/assemblyline.1`).
struct ManualCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "manual",
        abstract: "Print the manual page (roff), made from the help of every subcommand.",
        discussion: "Install it with: assemblyline manual > /usr/local/share/man/man1/assemblyline.1; read it with man -l.")

    init(_ values: ParsedValues) throws {}

    func run(_ context: CommandContext) async throws {
        context.console.out(ManualPageRenderer.render(commands: AssemblyLineTool.commands.map { $0.configuration }))
    }
}
