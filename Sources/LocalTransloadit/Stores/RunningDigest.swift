import Digests

/// The MD5 of a tus upload's bytes so far, kept between PATCHes so that completing it needs no second read of the file.
///
/// A PATCH works on a `copy()` and hands it back when its bytes stay; a rolled-back PATCH's copy is dropped.
final class RunningDigest: @unchecked Sendable {  // one PATCH at a time holds it (the store's claim); never shared while updated
    private let digest: Digest

    init(_ digest: Digest = Digest(.md5)) {
        self.digest = digest
    }

    /// A digest to feed a PATCH's bytes into, starting from what this one has seen.
    func copy() -> RunningDigest {
        RunningDigest(digest.copy())
    }

    func update(_ buffer: UnsafeRawBufferPointer) {
        digest.update(buffer)
    }

    /// The lowercase hex MD5 of everything fed in; the object cannot be used afterwards.
    func finalizeHex() -> String {
        Hex.encode(digest.finalize())
    }
}
