import AssemblyLine
import Testing

@Suite struct CountTextTests {
    @Test(arguments: [(0, "0 shards"), (1, "1 shard"), (2, "2 shards")])
    func oneIsSingular(count: Int, text: String) {
        #expect(CountText.of(count, "shard") == text)
    }
}
