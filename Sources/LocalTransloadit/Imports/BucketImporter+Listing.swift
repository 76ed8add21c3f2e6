import AssemblyLine
import Digests

extension BucketImporter {
    /// The keys of a directory, in S3's order: those right under it (all nested ones when `recursive`), the page asked for.
    func list(directory: String, options: BucketImportOptions, address: S3BucketAddress, credential: TemplateCredential,
              transfer: HTTPTransferOptions) -> Result<[String], Failure> {
        guard let fetcher = context.fetcher else { return .failure(.fetch(.unavailable)) }
        var listing = transfer
        listing.totalTimeout = .seconds(120)
        let lister = S3BucketLister(address: address, credentials: credential.keys, hashing: LibcryptoSigV4Hashing(),
                                    transport: fetcher.transport, clock: context.clock, options: listing)
        let skip = (options.pageNumber - 1) * options.filesPerPage
        let wanted = options.filesPerPage
        let recursive = options.recursive
        return fetcher.blocking { () async -> Result<[String], Failure> in
            var keys: [String] = []
            var seen = 0
            do throws(S3ListingError) {
                try await lister.list(prefix: directory) { page in
                    for object in page.objects {
                        let rest = object.key.utf8.dropFirst(directory.utf8.count)
                        guard !rest.isEmpty, rest.last != UInt8(ascii: "/"), recursive || !rest.contains(UInt8(ascii: "/")) else { continue }
                        seen += 1
                        if seen > skip, keys.count < wanted { keys.append(object.key) }
                    }
                    return keys.count < wanted ? .next : .stop
                }
            } catch {
                return .failure(.listing(error))
            }
            return .success(keys)
        }
    }
}
