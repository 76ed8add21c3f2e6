/// Maps an Assembly's results back to the shard's input files and to their paths under the output directory.
///
/// Files are sent under the field name `file_<index>` (the ledger's file index), so a result maps to
/// its input through its own `field`, or through `original_id` and the upload with that id.
package struct ResultMapper: Sendable {
    package var runID: RunID
    package var shardIndex: Int
    package var output: OutputSettings
    /// Which result URLs are fetched.
    package var urls: ResultURLRule
    /// The step that imports remote inputs, whose results are the inputs themselves (recorded, never downloaded); nil for uploads.
    package var importStep: ImportStep?

    package init(runID: RunID, shardIndex: Int, output: OutputSettings, urls: ResultURLRule, importStep: ImportStep? = nil) {
        self.runID = runID
        self.shardIndex = shardIndex
        self.output = output
        self.urls = urls
        self.importStep = importStep
    }

    /// The inputs of an Assembly as its status names them: by the ID of their upload or import, and by what was imported.
    package struct InputNames: Sendable {
        /// Ledger indexes by upload or imported file ID.
        var byID: [String: Int] = [:]
        /// Ledger indexes by key or URL (``ImportStep/source(of:)``), for results that carry only their `import_url`.
        var bySource: [String: Int] = [:]

        package init() {}
    }

    /// The form field name of the file with a ledger index.
    package static func field(forFile index: Int) -> String { "file_\(index)" }

    /// The ledger file index a field name stands for, if it is one of ours.
    package static func fileIndex(ofField field: String) -> Int? {
        guard field.hasPrefix("file_") else { return nil }
        return Int(field.dropFirst(5))
    }

    /// The ledger index of the input an execution error names through `original_id`: its upload's, or the file the import
    /// step gave (listed, since the step says `result: true`: ``ImportStep/step(importing:)``), if any.
    package func failedFileIndex(of status: AssemblyStatus, files: [FileRecord]) -> Int? {
        guard let original = status.failedOriginalID else { return nil }
        return inputNames(in: status, files: files).byID[original]
    }

    /// Every result of the status as a ``NewResult`` with its inputs and what becomes of it, steps and files in order.
    ///
    /// A result maps to the inputs of this Assembly (`files`) that its `field`, else its `original_id`s
    /// and their uploads, name: one (the file's own), several (a zip, a concatenation), or none
    /// (``ResultSource/unmatched``: recorded, never downloaded). Of imported inputs, a result of one names its input by its
    /// own `import_url` or `original_path`, one of several through the import step's files; those files, the inputs
    /// themselves, name the inputs and are not recorded. A result of a step `output.steps`
    /// selects is downloaded when it has a URL; one of an export Robot's step is recorded as exported;
    /// the rest are recorded. A result to download whose URL ``urls`` refuses, or whose output path an
    /// earlier result of the Assembly took, is recorded instead and listed in ``ResultMapping/refusals``
    /// (`RESULT_URL_REFUSED`, `OUTPUT_COLLISION`): nothing is fetched from it, nothing is overwritten.
    /// No URL is kept with its credentials.
    package func results(of status: AssemblyStatus, files: [FileRecord]) -> ResultMapping {
        let byIndex = Dictionary(files.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let inputs = inputNames(in: status, files: files)
        var mapping = ResultMapping()
        var taken: Set<PathKey> = []
        // The import step's files are the inputs themselves: they name them, and are no result of the recipe.
        for step in status.results.keys.sorted() where importStep == nil || step != ImportStep.name {
            for file in status.results[step] ?? [] {
                var mapped = result(file, step: step, ordinal: mapping.results.count, inputs: inputs, byIndex: byIndex)
                if let refusal = refusal(of: mapped, taken: &taken) {
                    mapped.delivery = .recorded
                    mapping.refusals.append(ResultMapping.Refusal(result: mapped, reason: refusal))
                }
                mapped.url = mapped.url.map(URLText.withoutCredentials)
                mapping.results.append(mapped)
            }
        }
        return mapping
    }

    /// The inputs as `status` names them: each upload's ID by its field (`file_<index>`); with an ``importStep``, each file the
    /// import step gave by the URL it was fetched from (`import_url`) or the key it was found at (`original_path`, with or
    /// without a leading `/`), matched against what the step was sent for `files`. The import step's files are listed since
    /// it says `result: true`; a result made from one imported file carries the same `import_url` or `original_path`
    /// itself, and is bound by it even where they are not (``result(_:step:ordinal:inputs:byIndex:)``).
    func inputNames(in status: AssemblyStatus, files: [FileRecord]) -> InputNames {
        var names = InputNames()
        for upload in status.uploads {
            guard let id = upload.id, let index = upload.field.flatMap(Self.fileIndex(ofField:)), names.byID[id] == nil else { continue }
            names.byID[id] = index
        }
        guard let importStep else { return names }
        for record in files { names.bySource[importStep.source(of: record.file.path)] = record.index }
        for imported in status.results[ImportStep.name] ?? [] {
            guard let id = imported.id, names.byID[id] == nil, let index = input(of: imported, in: names) else { continue }
            names.byID[id] = index
        }
        return names
    }

    /// The input an imported file (or a result that carries its `import_url`) stands for, by what was imported.
    private func input(of file: AssemblyFile, in names: InputNames) -> Int? {
        if let url = file.importURL { return names.bySource[url] }
        guard let path = file.originalPath else { return nil }
        return names.bySource[path] ?? (path.hasPrefix("/") ? names.bySource[String(path.dropFirst())] : nil)
    }

    /// Why a result to download is not, if it is not: its URL, or its path taken by an earlier one (which it then does not take).
    private func refusal(of result: NewResult, taken: inout Set<PathKey>) -> FailureReason? {
        guard let path = result.outputPath, let url = result.url else { return nil }
        if let problem = urls.problem(with: url) {
            return FailureReason(code: .resultURLRefused, message: "\(result.name) of step \(result.step) is not fetched: \(problem)",
                                 isRetryable: false)
        }
        if let problem = PathText.lengthProblem(of: path) {
            return FailureReason(code: .outputNameTooLong, message: "\(result.name) of step \(result.step) renders to \(path), which cannot be created: \(problem)",
                                 isRetryable: false)
        }
        guard taken.insert(PathKey(path)).inserted else {
            return FailureReason(code: .outputCollision,
                                 message: "\(result.name) of step \(result.step) renders to \(path), which another result of the Assembly took; "
                                     + "nothing was overwritten",
                                 isRetryable: false)
        }
        return nil
    }

    /// One result of `step` as a ``NewResult``; `ordinal` names a result that has neither a name nor an id,
    /// `inputs` names the inputs by their uploads' or imports' IDs, `byIndex` the shard's files by ledger index.
    package func result(_ file: AssemblyFile, step: String, ordinal: Int, inputs names: InputNames = InputNames(),
                        byIndex: [Int: FileRecord]) -> NewResult {
        let named: [Int] = if let field = file.field {
            Self.fileIndex(ofField: field).map { [$0] } ?? []
        } else if importStep != nil, file.originalIDs.count <= 1,
                  let imported = input(of: file, in: names) ?? (file.originalIDs.first ?? file.id).flatMap({ names.byID[$0] }) {
            [imported]
        } else {
            file.originalIDs.compactMap { names.byID[$0] }
        }
        let inputs = Set(named.filter { byIndex[$0] != nil }).sorted()
        let source: ResultSource = switch inputs.count {
        case 0: .unmatched
        case 1: .file(inputs[0])
        default: .several(inputs)
        }
        let input = inputs.count == 1 ? byIndex[inputs[0]] : nil
        let name = file.name ?? file.id ?? "\(step)-\(ordinal)"
        let url = file.downloadURL
        let delivery: NewResult.Delivery = switch output.steps.delivery(ofStep: step) {
        case .download where url != nil && source != .unmatched:
            .download(to: Self.outputPath(output, run: runID, shard: shardIndex, step: step,
                                          from: input.map { .input($0.file) } ?? .named(name, ext: file.ext)))
        case .export: .exported
        case .download, .record: .recorded
        }
        return NewResult(
            source: source, step: step, remoteID: file.id, name: name, url: url, size: file.size,
            md5: file.md5hash, mime: file.mime, width: file.width, height: file.height,
            isTemporary: file.isTemporaryURL ?? url.map(Self.isTemporaryStorage) ?? false, delivery: delivery)
    }

    /// True for a URL on Transloadit's temporary storage (`tmp-*.transloadit.net`), for results
    /// whose status does not say `is_temp_url`.
    static func isTemporaryStorage(_ url: String) -> Bool {
        let host = URLText.host(of: url, scheme: "https") ?? ""
        return host.hasPrefix("tmp") && (host.hasSuffix(".transloadit.net") || host.hasSuffix(".transloadit.com"))
    }

    /// What a result's path is rendered from: the one input it was made from, or, for a result of
    /// several inputs, the name and extension the service gave it.
    package enum PathSource: Sendable {
        case input(PlannedFile)
        case named(String, ext: String?)
    }

    /// Why `file` cannot be sent, if so: an output the layout gives it for a downloaded step that no file
    /// can have (``PathText/lengthProblem(of:)``); the file then fails alone, before the creation.
    package func unwritableOutput(of file: PlannedFile) -> FailureReason? {
        for step in output.downloadedSteps {
            let path = Self.outputPath(output, run: runID, shard: shardIndex, step: step, from: .input(file))
            guard let problem = PathText.lengthProblem(of: path) else { continue }
            return FailureReason(code: .outputNameTooLong, message: "\(file.path) is not sent: output.layout gives it \(path), "
                                     + "which cannot be created: \(problem)", isRetryable: false)
        }
        return nil
    }

    /// The absolute path under `output.dir` that the layout gives a result of `step`: the one function
    /// `plan`'s collision check and the run's downloads both use, so that they test the same paths.
    ///
    /// `{ext}` is the step's `format` in the recipe, else the input's own extension; `{name}` is
    /// `<stem>.<ext>`, as Transloadit names results. Nothing the service says reaches the path of a
    /// result made from one input. A result of several inputs (a zip) takes its name from the service,
    /// reduced to one safe file name (``SafeFileName``), and its extension from the recipe, else that name.
    package static func outputPath(_ output: OutputSettings, run: RunID, shard: Int, step: String, from source: PathSource) -> String {
        let relative: String
        let stem: String
        let ownExt: String?
        switch source {
        case let .input(file):
            relative = file.relativePath
            (stem, ownExt) = PathText.stemAndExtension(of: PathText.lastComponent(of: relative))
        case let .named(name, ext):
            relative = SafeFileName.from(name)
            stem = PathText.stemAndExtension(of: PathText.lastComponent(of: relative)).stem
            ownExt = (ext.map(SafeFileName.from) ?? PathText.stemAndExtension(of: relative).extension).flatMap { $0.isEmpty ? nil : $0 }
        }
        let directory = PathText.directory(of: relative)
        let ext = output.formats[step] ?? ownExt ?? ""
        let path = output.layout.render { placeholder in
            switch placeholder {
            case .run: run.rawValue
            case .step: step
            case .shard: String(shard)
            case .relpath: directory == "." ? stem : directory + "/" + stem
            case .dir: directory
            case .stem: stem
            case .ext: ext
            case .name: ext.isEmpty ? stem : "\(stem).\(ext)"
            case .inputExt: ownExt ?? ""
            }
        }
        return PathText.resolve(path, against: output.dir)
    }
}
