/// A stable 64-bit hash of text (FNV-1a): the same on every run and machine, unlike `Hasher`, which is seeded per process.
package enum FNVHash {
    package static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return hash
    }
}
