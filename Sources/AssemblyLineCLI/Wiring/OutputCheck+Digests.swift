import AssemblyLine
import Digests

extension OutputCheck {
    /// The check `run`, `plan` and `check` make: sizes, and with `checksums` MD5s too, through libcrypto.
    init(checksums: Bool) {
        self.init(checksums: checksums ? LibcryptoFileDigester() : nil)
    }
}
