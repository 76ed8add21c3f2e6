import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPServer
import ImageRobot

/// Runs one Assembly's steps on a worker thread and records the outcome.
///
/// Steps run in dependency order: `:original` (and any `/upload/handle` step) is the uploads,
/// `/s3/import`, `/minio/import` and `/http/import` fetch files into the Assembly (``BucketImporter``,
/// ``HTTPImporter``), `/image/resize` resizes each file it uses, `/s3/store` copies each into `storage/` (the
/// export Robots' stand-in). Each result is added to the Assembly as soon as it is made (the
/// status shows it and the change stream announces it while the Assembly executes, as in
/// production), and the whole outcome is committed at the end. A file that fails does not stop the others: the
/// Assembly ends with the first failure as its `error` (`ok: null`) and keeps the results that
/// were made. A cancel seen between files stops the work and deletes what it wrote.
struct AssemblyExecutor: Sendable {
    let store: AssemblyStore
    let faults: FaultInjector
    let resizer: ImageResizer
    let log: ServiceLog
    let clock: any PipelineClock
    let imports: ImportContext

    /// What a run produced before it was committed.
    private struct Outcome {
        var uploads: [ServiceAssemblyFile]
        var imports: [ServiceAssemblyFile] = []
        var results: [String: [ServiceAssemblyFile]] = [:]
        var written: [ServiceAssemblyFile] = []
        var failure: AssemblyFailure?
    }

    func execute(_ id: String) {
        let started = clock.now
        // Results an earlier run left (a stop cut it short) make way for this run's; deleted once it commits.
        var stale: [ServiceAssemblyFile] = []
        guard let record = store.update(id, { record -> AssemblyRecord? in
            guard record.state == .executing else { return nil }
            record.executionStart = record.executionStart ?? started
            stale = (record.results.values.flatMap { $0 } + (record.imports ?? [])).filter { old in
                !record.uploads.contains { $0.storedPath == old.storedPath }
            }
            record.results = [:]
            record.imports = nil
            return record
        }), let record else { return }
        var outcome = Outcome(uploads: record.uploads.map(withMeta))
        if let code = faults.executionFailure(assemblyID: id) {
            outcome.failure = AssemblyFailure(code: code, message: "Injected fault: the Assembly fails on purpose.")
        } else {
            do {
                try run(record, into: &outcome)
            } catch {
                outcome.written.forEach { try? FileManager.default.removeItem(atPath: store.absolute($0.storedPath)) }
                return
            }
        }
        let finished = clock.now
        let committed = store.update(id) { record -> Bool in
            guard record.state == .executing else { return false }
            record.uploads = outcome.uploads
            record.imports = outcome.imports.isEmpty ? nil : outcome.imports
            record.results = outcome.results
            record.failure = outcome.failure
            record.state = outcome.failure == nil ? .completed : .failed
            record.executionEnd = finished
            return true
        } ?? false
        let discarded = committed ? stale : outcome.written
        discarded.forEach { try? FileManager.default.removeItem(atPath: store.absolute($0.storedPath)) }
    }

    /// Thrown when the Assembly was canceled while it ran.
    private struct Canceled: Error {}

    private func run(_ record: AssemblyRecord, into outcome: inout Outcome) throws(Canceled) {
        var params = record.mergedParams.value.objectValue ?? [:]
        params["template_id"] = nil
        let instructions: ServiceInstructions
        do {
            instructions = try ServiceInstructions(params: params, template: nil)
        } catch {
            outcome.failure = AssemblyFailure(code: error.code.rawValue, message: error.message, reason: error.reason)
            return
        }
        var outputs: [String: [ServiceAssemblyFile]] = [ServiceInstructions.original: outcome.uploads]
        for step in instructions.steps {
            let inputs = step.inputs.flatMap { outputs[$0] ?? [] }
            var files: [ServiceAssemblyFile] = []
            switch step.robot {
            case .uploadHandle:
                files = outcome.uploads
                if step.isResult { show(files, of: step.name, in: record.id) }
            case .imageResize(let options):
                for input in inputs {
                    guard store.record(record.id)?.state == .executing else { throw Canceled() }
                    do {
                        let file = try resize(input, step: step.name, options: options, assembly: record.id)
                        files.append(file)
                        outcome.written.append(file)
                        if step.isResult { show([file], of: step.name, in: record.id) }
                    } catch {
                        outcome.failure = outcome.failure ?? error
                    }
                }
            case .bucketImport(let options):
                try fetch(into: &files, outcome: &outcome, step: step, assembly: record.id) { each in
                    BucketImporter(context: imports).run(options, step: step.name, assembly: record.id, each: each)
                }
            case .httpImport(let options):
                try fetch(into: &files, outcome: &outcome, step: step, assembly: record.id) { each in
                    HTTPImporter(context: imports).run(options, step: step.name, assembly: record.id, each: each)
                }
            case .s3Store:
                for input in inputs {
                    do {
                        let file = try store(input, step: step.name, assembly: record.id)
                        files.append(file)
                        if step.isResult { show([file], of: step.name, in: record.id) }
                    } catch {
                        outcome.failure = outcome.failure ?? error
                    }
                }
            }
            outputs[step.name] = files
            if step.isResult {
                outcome.results[step.name] = files
            }
        }
    }

    /// Runs an import step: each file it fetches becomes one of the step's files (shown at once when the step is a
    /// result); a failure is kept as the Assembly's first; a cancel or a stop of the service stops it, uncommitted.
    private func fetch(into files: inout [ServiceAssemblyFile], outcome: inout Outcome, step: ServiceInstructions.Step, assembly: String,
                       _ importer: ((Result<ServiceAssemblyFile, AssemblyFailure>) -> Bool) -> Void) throws(Canceled) {
        var canceled = false
        importer { result in
            switch result {
            case .success(let fetched):
                let file = withMeta(fetched)
                files.append(file)
                outcome.imports.append(file)
                outcome.written.append(file)
                if step.isResult { show([file], of: step.name, in: assembly) }
            case .failure(let failure):
                outcome.failure = outcome.failure ?? failure
            }
            // A stop aborts the transfers in flight: nothing is committed, and the Assembly runs again when the service
            // starts on its data directory.
            canceled = imports.fetcher?.isStopped == true || store.record(assembly)?.state != .executing
            return !canceled
        }
        if canceled { throw Canceled() }
    }

    /// Adds results of `step` to the executing Assembly, for its status and its change stream; in memory
    /// only, since an execution a restart cuts short starts over without them.
    private func show(_ files: [ServiceAssemblyFile], of step: String, in id: String) {
        store.update(id, durably: false) { record in
            guard record.state == .executing else { return }
            record.results[step, default: []] += files
        }
    }

    /// Resizes one file into a new result of the Assembly.
    private func resize(_ input: ServiceAssemblyFile, step: String, options: ResizeOptions, assembly: String) throws(AssemblyFailure) -> ServiceAssemblyFile {
        let fileID = ServiceID.make()
        let storedPath = store.storedPath(assembly: assembly, file: fileID)
        let (source, output) = (store.absolute(input.storedPath), store.absolute(storedPath))
        // What the failures below call the files: the client's names, never the data directory's paths.
        let names = [(source, input.name), (output, ServiceAssemblyFile.join(basename: input.basename, ext: options.format?.fileExtension ?? input.ext))]
        do {
            let resized = try resizer.resize(input: source, output: output, options: options)
            let keepsExtension = options.format == nil && (try? ImageFormat(parsing: input.ext)) == resized.format
            let ext = keepsExtension ? input.ext : resized.format.fileExtension
            var file = input
            file.id = fileID
            file.assemblyID = assembly
            file.ext = ext
            file.name = ServiceAssemblyFile.join(basename: input.basename, ext: ext)
            file.size = resized.byteCount
            file.mime = resized.mimeType
            file.md5hash = Hex.encode(try Digest.hashFile(.md5, path: output))
            file.width = resized.width
            file.height = resized.height
            file.isTusFile = false
            file.tusUploadID = nil
            file.storedPath = storedPath
            return file
        } catch let error as ImageRobotError {
            try? FileManager.default.removeItem(atPath: output)
            let code: ServiceErrorCode = if case .invalidOptions = error { .imageResizeValidation } else { .imageResizeError }
            throw AssemblyFailure(
                code: code.rawValue, message: "Step '\(EchoedText.excerpt(step))' could not resize \(input.name).",
                reason: FileFailureText(root: store.root).scrubbed(error.description, naming: names),
                step: step, file: input.name, originalID: input.originalID)
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw AssemblyFailure(
                code: ServiceErrorCode.internalCommandError.rawValue, message: "Step '\(EchoedText.excerpt(step))' could not hash its result of \(input.name).",
                reason: FileFailureText(root: store.root).scrubbed("\(error)", naming: names), step: step, file: input.name, originalID: input.originalID)
        }
    }

    /// Copies one file into `storage/<assembly>/<step>/<file id>-<name>`, as an export Robot stores it into the customer's bucket.
    private func store(_ input: ServiceAssemblyFile, step: String, assembly: String) throws(AssemblyFailure) -> ServiceAssemblyFile {
        var file = input
        file.id = ServiceID.make()
        file.assemblyID = assembly
        file.storedPath = "storage/\(assembly)/\(step)/\(file.id)-\(input.name)"
        file.exported = true
        file.isTusFile = false
        file.tusUploadID = nil
        let target = store.absolute(file.storedPath)
        do {
            try FileManager.default.createDirectory(atPath: PathText.directory(of: target), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: store.absolute(input.storedPath), toPath: target)
        } catch {
            throw AssemblyFailure(code: ServiceErrorCode.s3StoreError.rawValue, message: "Step '\(EchoedText.excerpt(step))' could not store \(input.name).",
                                  reason: FileFailureText.reason(of: error), step: step, file: input.name, originalID: input.originalID)
        }
        return file
    }

    /// An upload with `meta.width`/`meta.height` filled in when it is a readable image.
    private func withMeta(_ file: ServiceAssemblyFile) -> ServiceAssemblyFile {
        guard file.width == nil, file.mime.hasPrefix("image/"),
              let info = try? ImageInspector.inspect(store.absolute(file.storedPath)) else { return file }
        var file = file
        file.width = info.width
        file.height = info.height
        return file
    }
}
