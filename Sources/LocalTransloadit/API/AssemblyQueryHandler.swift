import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// `GET /assemblies/<id>`, `DELETE /assemblies/<id>`, `GET /assemblies` and `GET /ws?assembly=<id>`: status,
/// cancel, the list and the change stream.
///
/// Status and cancel need no signature (whoever knows an Assembly's URL may read or cancel it, as
/// at Transloadit); the list is account-wide and takes signed `params` in the query.
struct AssemblyQueryHandler: Sendable {
    let service: ServiceContext

    /// The status JSON, or 429 past the per-Assembly status limit; a finished Assembly's status may let
    /// its uploads go, when its results were fetched while it ran (``ServiceContext/dropUploadsIfFetched(_:)``).
    func status(_ id: String, urls: ServiceURLs) -> HTTPResponse {
        guard let record = service.store.record(id) else {
            guard let arrival = service.store.arrival(of: id) else { return APIError.assemblyNotFound(id).response(urls: urls) }
            return .json(ServiceAssemblyStatus.arriving(id, arrival, urls: urls).serialized)
        }
        if let wait = service.statusRequests.admit(id) {
            var error = APIError(
                .assemblyStatusFetchingRateLimitReached, status: 429,
                "Too many status requests for this Assembly; poll less often.")
            error.retryIn = wait.retrySeconds
            return error.about(id).response(urls: urls)
        }
        let status = ServiceAssemblyStatus(
            record: record, urls: urls, liveOffsets: service.tus.liveOffsets(assembly: id), now: service.clock.now)
        service.dropUploadsIfFetched(record)
        return .json(status.json.serialized)
    }

    /// The Assembly's changes from now on as Server-Sent Events, ended by `assembly_finished` or
    /// `assembly_error`; an Assembly that ended already gets that one at once. Not rate-limited (one
    /// connection replaces the polls), and like the status it needs no signature.
    func changeStream(_ request: HTTPRequest, urls: ServiceURLs) -> HTTPResponse {
        let id = request.queryValue("assembly") ?? ""
        guard AssemblyID(id) != nil, service.store.record(id) != nil else { return APIError.assemblyNotFound(id).response(urls: urls) }
        let subscription = service.store.changes.subscribe(to: id, urls: urls)
        // Read again after subscribing: an end published in between is then either seen here or delivered.
        if let record = service.store.record(id), let ending = AssemblyChange.ending(of: record) {
            subscription.deliver([ending])
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
                            body: .stream(subscription))
    }

    /// Cancels a running Assembly (its unfinished tus uploads go too); a finished one keeps its state.
    func cancel(_ id: String, urls: ServiceURLs) -> HTTPResponse {
        let now = service.clock.now
        guard let record = service.store.update(id, { record -> AssemblyRecord in
            if record.state.isRunning {
                record.state = .canceled
                record.executionEnd = now
            }
            return record
        }) else {
            return APIError.assemblyNotFound(id).response(urls: urls)
        }
        for upload in record.tusUploads where !upload.finished {
            service.tus.remove(upload.id)
        }
        return .json(ServiceAssemblyStatus(record: record, urls: urls, now: now).json.serialized)
    }

    /// One page of Assemblies, newest first: `{"items": [...], "count": total}` (the page as ``ListPage`` reads it).
    func list(_ request: HTTPRequest, urls: ServiceURLs) -> HTTPResponse {
        let now = service.clock.now
        let page: ListPage
        do {
            let object = try service.verifier.verify(
                params: request.queryValue("params"), signature: request.queryValue("signature"), purpose: .account, now: now)
            page = try ListPage(params: object)
        } catch {
            return error.response(urls: urls)
        }
        let (records, total) = service.store.newestFirst(from: page.start, count: page.size)
        let items = records.map { JSONValue.object(ServiceAssemblyStatus(record: $0, urls: urls, now: now).summary) }
        return .json(JSONValue.object(["items": .array(items), "count": .integer(Int64(total))]).serialized)
    }
}
