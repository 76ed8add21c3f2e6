/// The URLs and output names a list gave so far, as 64-bit hashes: the one thing its reader keeps for each row.
///
/// A hash seen before says a row may repeat an earlier one; the reader reads the list again to find that row
/// (``URLListReader``), so a rare collision of two hashes never fails a list. Two sets of 8-byte hashes: 20 to 45 bytes a row.
struct URLListDuplicates {
    private var urls: Set<UInt64> = []
    private var names: Set<UInt64> = []

    /// Records `entry`; says whether its URL and its output name may have been given before.
    mutating func insert(_ entry: URLListEntry) -> (url: Bool, name: Bool) {
        (!urls.insert(FNVHash.of(entry.url)).inserted, !names.insert(FNVHash.of(entry.outputName)).inserted)
    }
}
