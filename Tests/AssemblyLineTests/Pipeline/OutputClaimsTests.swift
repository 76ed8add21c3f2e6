import AssemblyLine
import Testing

/// The output paths results of several inputs took in a run: the first shard keeps one, by its bytes.
@Suite struct OutputClaimsTests {
    @Test func theFirstShardKeepsAPathAndAResumeStartsFromTheLedgersClaims() {
        let claims = OutputClaims([(path: "/out/zip/archive.zip", shard: 0)])

        #expect(claims.claim("/out/zip/archive.zip", by: 1) == 0, "held by shard 0 before the resume")
        #expect(claims.claim("/out/zip/archive.zip", by: 0) == nil, "its own again (a retry of shard 0)")
        #expect(claims.claim("/out/zip/caf\u{E9}.zip", by: 2) == nil)
        #expect(claims.claim("/out/zip/cafe\u{301}.zip", by: 3) == nil, "another name's bytes, another path")
        #expect(claims.claim("/out/zip/caf\u{E9}.zip", by: 3) == 2)
    }
}
