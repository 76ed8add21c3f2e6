/// The 32 lowercase hex digits the service names its own things with: Assemblies it creates, files, tus uploads.
///
/// Clients may choose an Assembly's ID (the domain's `AssemblyID`); everything else the service
/// names itself, from the system's random source.
enum ServiceID {
    /// A fresh random ID.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
