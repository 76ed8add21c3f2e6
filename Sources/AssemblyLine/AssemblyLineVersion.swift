/// The version of AssemblyLine, shown by `--version` and sent in the `Transloadit-Client` header.
public enum AssemblyLineVersion {
    public static let current = "0.1.0"
}
