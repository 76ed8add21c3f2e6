package import ConfigFormat

/// Turns a parsed manifest into a ``Manifest``, reporting every problem of the file in one ``ConfigError``.
package struct ManifestDecoder {
    static let topLevelKeys = [
        "version", "name", "endpoint", "auth", "signer", "inputs", "template", "resize", "steps",
        "notify_url", "shards", "concurrency", "upload", "retry", "poll", "limits", "output", "state_dir", "monitoring",
    ]

    /// The manifest file; relative paths inside it resolve against its directory.
    package var source: ConfigSource
    /// True for `templates pull`, which writes the Template file: a file that does not exist yet is no error.
    package var templateFileMayBeMissing = false

    package init(displayPath: String, absolutePath: String, environment: [String: String]) {
        source = ConfigSource(displayPath: displayPath, absolutePath: absolutePath, environment: environment)
    }

    /// The validated manifest, or every issue found in it.
    package func decode(_ root: ConfigNode) throws(ConfigError) -> Manifest {
        try source.decode { reader in
            ManifestSections(reader: reader, directory: PathText.directory(of: source.absolutePath),
                             templateFileMayBeMissing: templateFileMayBeMissing).decode(root, file: source.absolutePath)
        }
    }
}

/// The section-by-section reading behind ``ManifestDecoder``; each section reports into one reader.
struct ManifestSections {
    let reader: ConfigReader
    /// The manifest's directory, against which relative paths resolve.
    let directory: String
    var templateFileMayBeMissing = false

    func decode(_ root: ConfigNode, file: String) -> Manifest? {
        guard let table = reader.table(root, field: "", keys: ManifestDecoder.topLevelKeys) else { return nil }
        if let version = table.string("version", required: true, expected: "1, the manifest format's version"), version != "1" {
            table.report("version", "expected 1, the only manifest version this AssemblyLine reads, found '\(version)'")
        }
        let name = self.name(table)
        let endpoint = self.endpoint(table)
        let auth = self.auth(table, endpoint: endpoint)
        let signer = self.signer(table, endpoint: endpoint)
        let inputs = self.inputs(table)
        var recipe = ManifestRecipeSection(reader: reader, directory: directory, templateFileMayBeMissing: templateFileMayBeMissing).decode(table)
        if endpoint == .embedded, case var .template(template)? = recipe {
            if template.file == nil {
                table.report("template", "the embedded service knows a Template only from its file, so every Assembly would fail; "
                    + "expected template.file (`assemblyline templates pull` writes it), or an endpoint URL")
            }
            // No account stands behind the embedded service: its Assemblies carry the file's steps.
            template.id = nil
            recipe = .template(template)
        }
        let notifyURL = table.string("notify_url").flatMap { url(table, "notify_url", $0, loopbackHTTP: false) }
        let stateDir = table.string("state_dir").map(resolve) ?? resolve(ManifestDefaults.stateDir)
        let output = self.output(table, stateDir: stateDir, recipe: recipe)
        let shards = self.shards(table), concurrency = self.concurrency(table), upload = self.upload(table)
        let retry = self.retry(table), poll = self.poll(table), (limits, resultLimits, maxUsage, breaker) = self.limits(table)
        let monitoring = self.monitoring(table)
        guard let name, let endpoint, let auth, let signer, let inputs, let recipe, let output else { return nil }
        return Manifest(
            file: file, name: name, endpoint: endpoint, auth: auth, signer: signer, inputs: inputs,
            recipe: recipe, notifyURL: notifyURL, shards: shards, concurrency: concurrency,
            upload: upload, retry: retry, poll: poll, limits: limits, resultLimits: resultLimits,
            output: output, stateDir: stateDir, monitoring: monitoring, maxUsage: maxUsage, failureBreaker: breaker)
    }

    private func resolve(_ path: String) -> String { PathText.resolve(path, against: directory) }

    /// `monitoring`: the metrics file, and the ping URL's source (either key of it names one) with its timeout.
    private func monitoring(_ table: ConfigTable) -> MonitoringSettings {
        guard let section = table.table("monitoring", keys: ["metrics_file", "ping_url_env", "ping_url_file", "ping_timeout"]) else {
            return MonitoringSettings()
        }
        let pings = section.has("ping_url_env") || section.has("ping_url_file")
        return MonitoringSettings(metricsFile: section.string("metrics_file").map(resolve),
                                  pingURL: pings ? section.secretSource(prefix: "ping_url", relativeTo: directory) : nil,
                                  pingTimeout: section.duration("ping_timeout", in: ManifestDefaults.pingTimeoutRange) ?? ManifestDefaults.pingTimeout)
    }

    private func name(_ table: ConfigTable) -> String? {
        let expected = "a name of letters, digits, '.', '_' and '-' (at most 64)"
        guard let name = table.string("name", required: true, expected: expected) else { return nil }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        guard allowed, name.count <= 64 else {
            table.report("name", "expected \(expected), found '\(name)'")
            return nil
        }
        return name
    }

    private func endpoint(_ table: ConfigTable) -> Endpoint? {
        guard let text = table.string("endpoint", expected: "embedded or a base URL such as https://api2.transloadit.com") else {
            return table.has("endpoint") ? nil : .embedded
        }
        if text == "embedded" { return .embedded }
        return url(table, "endpoint", text, loopbackHTTP: true).map { .url($0.hasSuffix("/") ? String($0.dropLast()) : $0) }
    }

    /// The URL when it is `https://…`, or `http://` to a loopback host where that is allowed.
    func url(_ table: ConfigTable, _ key: String, _ text: String, loopbackHTTP: Bool) -> String? {
        if let host = URLText.host(of: text, scheme: "https"), !host.isEmpty { return text }
        if let host = URLText.host(of: text, scheme: "http") {
            if !loopbackHTTP || URLText.isLoopback(host) { return text }
            table.report(key, "plain http is allowed only to a loopback host (127.0.0.1, localhost, [::1]); expected an https:// URL, found '\(text)'")
            return nil
        }
        table.report(key, "expected an https:// URL\(key == "endpoint" ? " or embedded" : ""), found '\(text)'")
        return nil
    }

    private func auth(_ table: ConfigTable, endpoint: Endpoint?) -> AuthSettings? {
        let section = table.table("auth", keys: ["key", "expires_in", "secret"])
        if section?.has("secret") == true {
            section?.report("secret", ManifestSections.literalSecretMessage(use: "signer.secret_env or signer.secret_file"))
        }
        let key = section?.string("key")
        if key == nil, case .url = endpoint, section?.has("key") != true {
            if let section { section.reportMissing("key", expected: "the Auth Key of the account (needed with an endpoint URL)") } else {
                table.reportMissing("auth", expected: "a mapping with the Auth Key (auth.key), needed with an endpoint URL")
            }
        }
        let expiresIn = section?.duration("expires_in", in: ManifestDefaults.expiresInRange) ?? ManifestDefaults.expiresIn
        return AuthSettings(key: key, expiresIn: expiresIn)
    }

    static func literalSecretMessage(use alternative: String) -> String {
        "a literal secret in a manifest is refused: manifests end up in version control, backups and logs; use \(alternative) instead"
    }

    private func signer(_ table: ConfigTable, endpoint: Endpoint?) -> SignerSettings? {
        ManifestSignerSection(reader: reader, directory: directory, sections: self).decode(table, endpoint: endpoint)
    }

    private func inputs(_ table: ConfigTable) -> InputSettings? {
        guard let section = table.table("inputs", keys: ["include", "exclude", "base", "case_insensitive", "s3", "urls"], required: true) else {
            return nil
        }
        var bucket: BucketInputSettings?
        var urlList: URLListSettings?
        if section.has("urls") {
            guard let settings = ManifestURLListSection(directory: directory).decode(section) else { return nil }
            if section.has("s3") { section.report("s3", "not used with inputs.urls: a night reads one list or one bucket") }
            if section.has("base") { section.report("base", "not used with inputs.urls: relative paths are the rows' output names") }
            urlList = settings
        } else if section.has("s3") {
            guard let settings = ManifestBucketSection(directory: directory).decode(section) else { return nil }
            if section.has("base") { section.report("base", "not used with inputs.s3: relative paths start below inputs.s3.prefix") }
            bucket = settings
        }
        let ignoringCase = section.bool("case_insensitive") ?? false
        // A list's rows are every input by default: globs, when given, only narrow them.
        let include = section.strings("include", required: urlList == nil) ?? (urlList == nil ? nil : [])
        let exclude = section.strings("exclude") ?? []
        if include?.isEmpty == true, section.has("include") { section.report("include", "expected at least one glob, found an empty list") }
        let root = urlList.map { _ in URLListSettings.root } ?? bucket?.root ?? directory
        let base = urlList.map { _ in URLListSettings.root } ?? bucket?.root ?? section.string("base").map(resolve) ?? directory
        guard let include, !include.isEmpty || (urlList != nil && !section.has("include")),
              let includePatterns = patterns(include, section, "include", relativeTo: root, ignoringCase: ignoringCase),
              let excludePatterns = patterns(exclude, section, "exclude", relativeTo: root, ignoringCase: ignoringCase) else { return nil }
        return InputSettings(include: includePatterns, exclude: excludePatterns, base: base, bucket: bucket, urlList: urlList)
    }

    /// The patterns resolved against `root` (the manifest's directory, or a bucket's prefix); a malformed one is reported at its key.
    private func patterns(_ texts: [String], _ section: ConfigTable, _ key: String, relativeTo root: String,
                          ignoringCase: Bool) -> [GlobPattern]? {
        var patterns: [GlobPattern] = []
        for text in texts {
            do {
                patterns.append(try GlobPattern(text, relativeTo: root, ignoringCase: ignoringCase))
            } catch {
                section.report(key, error.description)
            }
        }
        return patterns.count == texts.count ? patterns : nil
    }

    private func shards(_ table: ConfigTable) -> ShardLimits {
        let section = table.table("shards", keys: ["files", "max_bytes"])
        return ShardLimits(
            maxFiles: section?.int("files", in: ManifestDefaults.shardFilesRange) ?? ManifestDefaults.shardFiles,
            maxBytes: section?.size("max_bytes", in: ManifestDefaults.shardMaxBytesRange) ?? ManifestDefaults.shardMaxBytes)
    }

    private func concurrency(_ table: ConfigTable) -> ConcurrencyLimits {
        let section = table.table("concurrency", keys: ["assemblies", "uploads", "downloads"])
        let range = ManifestDefaults.concurrencyRange
        return ConcurrencyLimits(
            assemblies: section?.int("assemblies", in: range) ?? ManifestDefaults.assemblies,
            uploads: section?.int("uploads", in: range) ?? ManifestDefaults.uploads,
            downloads: section?.int("downloads", in: range) ?? ManifestDefaults.downloads)
    }

    private func upload(_ table: ConfigTable) -> UploadSettings {
        let section = table.table("upload", keys: ["mode", "chunk_size", "checksums"])
        return UploadSettings(
            mode: section?.choice("mode", as: UploadSettings.Mode.self) ?? ManifestDefaults.uploadMode,
            chunkSize: section?.size("chunk_size", in: ManifestDefaults.chunkSizeRange) ?? ManifestDefaults.chunkSize,
            checksums: section?.bool("checksums") ?? true)
    }

    private func retry(_ table: ConfigTable) -> RetrySettings {
        let section = table.table("retry", keys: ["attempts", "base_delay", "max_delay"])
        let range = ManifestDefaults.retryDelayRange
        let settings = RetrySettings(
            attempts: section?.int("attempts", in: ManifestDefaults.retryAttemptsRange) ?? ManifestDefaults.retryAttempts,
            baseDelay: section?.duration("base_delay", in: range) ?? ManifestDefaults.retryBaseDelay,
            maxDelay: section?.duration("max_delay", in: range) ?? ManifestDefaults.retryMaxDelay)
        if let section, settings.baseDelay > settings.maxDelay {
            section.report(section.has("max_delay") ? "max_delay" : "base_delay",
                           "expected max_delay (\(ConfigUnits.formatDuration(settings.maxDelay))) to be at least base_delay (\(ConfigUnits.formatDuration(settings.baseDelay)))")
        }
        return settings
    }

    private func poll(_ table: ConfigTable) -> PollSettings {
        let section = table.table("poll", keys: ["interval", "max_interval", "timeout", "stream"])
        let range = ManifestDefaults.pollIntervalRange
        let settings = PollSettings(
            interval: section?.duration("interval", in: range) ?? ManifestDefaults.pollInterval,
            maxInterval: section?.duration("max_interval", in: range) ?? ManifestDefaults.pollMaxInterval,
            timeout: section?.duration("timeout", in: ManifestDefaults.pollTimeoutRange) ?? ManifestDefaults.pollTimeout,
            stream: section?.bool("stream") ?? true)
        if let section, settings.interval > settings.maxInterval {
            section.report(section.has("max_interval") ? "max_interval" : "interval",
                           "expected max_interval (\(ConfigUnits.formatDuration(settings.maxInterval))) to be at least interval (\(ConfigUnits.formatDuration(settings.interval)))")
        }
        return settings
    }

    private func limits(_ table: ConfigTable) -> (RateLimits, ResultLimits, maxUsage: Int64?, failureBreaker: Int) {
        let section = table.table("limits", keys: ["creations_per_minute", "status_per_second", "max_results_per_file", "max_result_size",
                                                    "max_undeclared_result_size", "min_free_space", "partition_share", "max_usage",
                                                    "failure_breaker"])
        let rates = RateLimits(
            creationsPerMinute: section?.int("creations_per_minute", in: ManifestDefaults.creationsPerMinuteRange) ?? ManifestDefaults.creationsPerMinute,
            statusRequestsPerSecond: section?.int("status_per_second", in: ManifestDefaults.statusRequestsPerSecondRange) ?? ManifestDefaults.statusRequestsPerSecond,
            partitionShare: section?.choice("partition_share", as: RateLimits.PartitionShare.self) ?? .split,
            setsCreationsPerMinute: section?.has("creations_per_minute") == true)
        let results = ResultLimits(
            maxResultsPerFile: section?.int("max_results_per_file", in: ManifestDefaults.maxResultsPerFileRange) ?? ManifestDefaults.maxResultsPerFile,
            maxResultSize: section?.size("max_result_size", in: ManifestDefaults.maxResultSizeRange) ?? ManifestDefaults.maxResultSize,
            maxUndeclaredResultSize: section?.size("max_undeclared_result_size", in: ManifestDefaults.maxResultSizeRange)
                ?? ManifestDefaults.maxUndeclaredResultSize,
            minFreeSpace: section?.size("min_free_space", in: ManifestDefaults.minFreeSpaceRange) ?? ManifestDefaults.minFreeSpace)
        return (rates, results, section?.size("max_usage", in: ManifestDefaults.maxUsageRange),
                section?.int("failure_breaker", in: ManifestDefaults.failureBreakerRange) ?? ManifestDefaults.failureBreaker)
    }

    private func output(_ table: ConfigTable, stateDir: String, recipe: Recipe?) -> OutputSettings? {
        let section = table.table("output", keys: ["dir", "layout", "steps"])
        let named = section?.string("dir").map(resolve)
        let dir = named ?? PathText.resolve(ManifestDefaults.outputDir, against: stateDir)
        let text = section?.string("layout") ?? ManifestDefaults.outputLayout
        let steps = recipe.map { selection(section, recipe: $0) }
        do {
            let layout = try OutputLayout(text)
            return steps.map { selection in
                OutputSettings(dir: dir, layout: layout, steps: selection, formats: recipe?.formatsByStep ?? [:],
                               downloadedSteps: recipe?.stepsDownloaded(by: selection) ?? ["result"], followsStateDir: named == nil)
            }
        } catch {
            section?.report("layout", error.description)
            return nil
        }
    }

    /// `output.steps`: `all`, `none`, or a list of step names (each one of the recipe's, when the recipe shows its steps).
    private func selection(_ section: ConfigTable?, recipe: Recipe) -> ResultSelection {
        var selection = ResultSelection.defaults(for: recipe)
        guard let section, let member = section.members["steps"] else { return selection }
        let expected = "all, none, or a list of step names"
        if case .sequence(let items) = member.value.content {
            var names: Set<String> = []
            let known = recipe.robotsByStep
            for (index, item) in items.enumerated() {
                let field = "\(member.field)[\(index)]"
                guard let name = reader.text(item, field: field, expected: "a step name") else { continue }
                if let known, known[name] == nil {
                    reader.report(item, field: field, "no step '\(name)' in the recipe; expected one of \(known.keys.sorted().joined(separator: ", "))")
                }
                names.insert(name)
            }
            selection.downloaded = names
            return selection
        }
        switch reader.text(member.value, field: member.field, expected: expected) {
        case "all": selection.downloaded = nil
        case "none": selection.downloaded = []
        case let other?: reader.report(member.value, field: member.field, "expected \(expected), found '\(other)'")
        case nil: break
        }
        return selection
    }
}
