import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer
import ImageRobot
import Synchronization

/// What every route of one running service shares: stores, auth, limits, faults, workers, URLs and the clock.
final class ServiceContext: Sendable {
    let store: AssemblyStore
    let tus: TusUploadStore
    let verifier: AuthVerifier
    let templates: TemplateStore
    let creations: ServiceRateLimiter
    let statusRequests: ServiceRateLimiter
    let faults: FaultInjector
    let queue: ExecutionQueue
    /// What the import Robots share; its fetcher is stopped before the workers.
    let imports: ImportContext
    let resultTTL: Duration
    /// ``LocalServiceConfiguration/dropsUploadsOnceFetched``.
    let dropsUploadsOnceFetched: Bool
    let maxUploadSize: Int64
    let log: ServiceLog
    /// The one source of the time now, for every record, expiry and duration (``LocalServiceConfiguration/clock``).
    let clock: any PipelineClock
    let fetches = FileFetchCounter()
    let requestCounts = ServiceRequestCounts()
    private let currentURLs: Mutex<ServiceURLs>

    /// Opens the data directory, loads its state and starts the workers; listening comes after.
    init(configuration: LocalServiceConfiguration, credentials: ServiceCredentials) throws(LocalServiceError) {
        let log = configuration.log
        let store = try AssemblyStore(root: configuration.dataDirectory, log: log)
        let resizer: ImageResizer
        do {
            resizer = try ImageResizer()
        } catch {
            throw .imagingUnavailable(error.description)
        }
        let faults = FaultInjector(plan: configuration.faults, log: log)
        let imports = ImportContext(
            store: store, fetcher: configuration.importTransport.map(ImportFetcher.init), rule: ImportURLRule(allowsLocalPeers: configuration.allowsLocalImports),
            maxFileSize: configuration.maxImportSize, credentials: configuration.templateCredentials, clock: configuration.clock)
        let executor = AssemblyExecutor(store: store, faults: faults, resizer: resizer, log: log, clock: configuration.clock, imports: imports)
        self.store = store
        self.tus = try TusUploadStore(directory: "\(configuration.dataDirectory)/tus")
        self.verifier = AuthVerifier(
            credentials: credentials, requireSignature: configuration.requireSignature,
            detectReuse: configuration.detectSignatureReuse)
        self.templates = try TemplateStore(root: configuration.dataDirectory, holding: configuration.templates, now: configuration.clock.now)
        self.creations = ServiceRateLimiter(limit: configuration.creationsPerMinute, window: .seconds(60))
        self.statusRequests = ServiceRateLimiter(limit: configuration.statusRequestsPerSecond, window: .seconds(1))
        self.faults = faults
        self.imports = imports
        self.queue = ExecutionQueue(workers: configuration.workers) { executor.execute($0) }
        self.resultTTL = configuration.resultTTL
        self.dropsUploadsOnceFetched = configuration.dropsUploadsOnceFetched
        self.maxUploadSize = configuration.maxUploadSize
        self.log = log
        self.clock = configuration.clock
        self.currentURLs = Mutex(ServiceURLs(base: "http://\(configuration.host):\(configuration.port)"))
        clearTemporaryFiles()
        resumeInterruptedWork()
    }

    /// The URLs handed out; set to the bound addresses once the API host and the machine listen.
    var urls: ServiceURLs {
        get { currentURLs.withLock { $0 } }
        set { currentURLs.withLock { $0 = newValue } }
    }

    /// The URLs handed out in the answer to `request`: on a wildcard address, they name its `Host`.
    func urls(for request: HTTPRequest) -> ServiceURLs {
        urls.reached(as: request.headers["Host"])
    }

    /// When a finished Assembly's files stop being served.
    func filesExpire(_ record: AssemblyRecord) -> Date? {
        record.executionEnd.map { $0.addingTimeInterval(Double(resultTTL.milliseconds) / 1000) }
    }

    /// Deletes the uploads (and imported files) of a completed Assembly each of whose results has been fetched, when the
    /// service is configured to (``dropsUploadsOnceFetched``); an upload that is also a result (`:original`) stays.
    /// Asked at each fetch of a result and at each status of a finished Assembly (results fetched while it ran).
    /// An Assembly that failed or was canceled keeps its uploads for their lifetime: they are what its replay runs on.
    func dropUploadsIfFetched(_ record: AssemblyRecord) {
        guard dropsUploadsOnceFetched, record.state == .completed else { return }
        let results = record.results.values.flatMap { $0 }.filter { $0.exported != true }
        guard !results.isEmpty, fetches.fetchedEach(assembly: record.id, files: results.map(\.id)) else { return }
        let kept = Set(results.map(\.storedPath))
        for upload in record.uploads + (record.imports ?? []) where !kept.contains(upload.storedPath) {
            try? FileManager.default.removeItem(atPath: store.absolute(upload.storedPath))
        }
    }

    /// Deletes the files of an Assembly past its result lifetime, and what was counted of them.
    func expireFiles(of id: String) {
        store.removeFiles(of: id)
        fetches.forget(assembly: id)
    }

    /// Multipart uploads cut off by a stop leave files in `tmp/`; nothing refers to them.
    private func clearTemporaryFiles() {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: store.temporaryDirectory)) ?? [] {
            try? manager.removeItem(atPath: "\(store.temporaryDirectory)/\(name)")
        }
    }

    /// Queues the Assemblies a stop left executing, and those whose last upload finished just before it.
    private func resumeInterruptedWork() {
        for record in store.running() {
            if record.state == .uploading && record.uploadsComplete {
                store.update(record.id) { $0.state = .executing }
                queue.enqueue(record.id)
            } else if record.state == .executing {
                queue.enqueue(record.id)
            }
        }
    }
}
