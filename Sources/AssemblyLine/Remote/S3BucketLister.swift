import HTTPMessages

/// Lists a bucket with ListObjectsV2, page by page, signed in-process (``SigV4Signer``), over the ``HTTPTransport`` port.
///
/// Path-style requests, `GET {endpoint}/{bucket}?list-type=2&prefix=…&max-keys=…&continuation-token=…`.
/// Each checked page goes to the caller before the next is asked for, and nothing of it is kept:
/// the listing holds one page in memory however long it is. It ends when a page is not truncated,
/// when the caller says ``ListingDecision/stop``, or fails (``S3ListingError``) on a refusal, a transport
/// failure, a page that cannot be trusted, a key out of order, a repeated continuation token or
/// more than ``maximumPages`` pages. It keeps the tokens it was given (one short text a page) to see
/// a repeat, and the last key.
package struct S3BucketLister: Sendable {
    /// What a listing went through.
    package struct Summary: Sendable, Hashable {
        package var pages: Int
        package var objects: Int
        package var skipped: Int
        /// True when the caller stopped it before its last page.
        package var stopped: Bool
    }

    package let address: S3BucketAddress
    private let signer: SigV4Signer
    private let transport: any HTTPTransport
    private let clock: any PipelineClock
    /// `max-keys`: 1 to 1,000 (S3's own bound).
    package let pageSize: Int
    /// The most pages one listing may take before it fails as endless.
    package let maximumPages: Int
    private let options: HTTPTransferOptions

    /// The bound for one page's answer: 1,000 keys of 1,024 bytes with their fields fit four times over.
    package static let pageBodyLimit = 8 << 20

    package init(
        address: S3BucketAddress, credentials: S3Credentials, hashing: any SigV4Hashing, transport: any HTTPTransport,
        clock: any PipelineClock, pageSize: Int = 1000, maximumPages: Int = 100_000,
        options: HTTPTransferOptions = HTTPTransferOptions(totalTimeout: .seconds(120))
    ) {
        self.address = address
        signer = SigV4Signer(credentials: credentials, region: address.region, hashing: hashing)
        self.transport = transport
        self.clock = clock
        self.pageSize = min(max(pageSize, 1), 1000)
        self.maximumPages = max(maximumPages, 1)
        self.options = options
    }

    /// Lists the keys under `prefix`, handing each page to `receive` in order.
    ///
    /// - Throws: ``S3ListingError``; the pages handed over before it stand.
    @discardableResult
    package func list(
        prefix: String, _ receive: (S3ListPage) async -> ListingDecision
    ) async throws(S3ListingError) -> Summary {
        var summary = Summary(pages: 0, objects: 0, skipped: 0, stopped: false)
        var token: String?
        var lastKey: String?
        var tokensSeen: Set<String> = []
        repeat {
            guard summary.pages < maximumPages else { throw .tooManyPages(pages: maximumPages) }
            let number = summary.pages + 1
            let page = try await fetch(prefix: prefix, token: token, number: number, after: lastKey)
            if let next = page.nextContinuationToken {
                guard tokensSeen.insert(next).inserted else { throw .repeatedContinuationToken(page: number) }
            }
            token = page.nextContinuationToken
            lastKey = page.lastKey ?? lastKey
            summary.pages = number
            summary.objects += page.objects.count
            summary.skipped += page.skipped.count
            if await receive(page) == .stop, token != nil {
                summary.stopped = true
                return summary
            }
        } while token != nil
        return summary
    }

    /// The signed request for one page.
    package func request(prefix: String, token: String?) -> HTTPRequestSpec {
        var query = [
            SigV4Request.QueryItem("list-type", "2"), SigV4Request.QueryItem("prefix", prefix),
            SigV4Request.QueryItem("max-keys", String(pageSize)),
        ]
        if let token { query.append(SigV4Request.QueryItem("continuation-token", token)) }
        let signed = SigV4Request(method: .get, host: address.host, path: "/\(address.bucket)", query: query)
        let headers = signer.headers(for: signed, at: UTCDateTime(clock.now))
        return .get(address.url(signed.urlSuffix), headers: headers)
    }

    private func fetch(prefix: String, token: String?, number: Int, after: String?) async throws(S3ListingError) -> S3ListPage {
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(request(prefix: prefix, token: token), to: .memory(limit: Self.pageBodyLimit), options: options)
        } catch {
            throw .transport(error)
        }
        guard response.isSuccess else { throw S3ErrorAnswer.refusal(status: response.status, body: response.bodyBytes) }
        return try ListObjectsV2Page(number: number, prefix: prefix, maxKeys: pageSize, after: after).decode(response.bodyBytes)
    }
}
