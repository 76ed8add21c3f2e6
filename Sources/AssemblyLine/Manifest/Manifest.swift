package import ConfigFormat

/// A validated job manifest, version 1: what to send, how, and where the results and the ledger go.
///
/// Every path in it is absolute: relative paths were resolved against the manifest's own directory,
/// never the working directory, so that cron and a shell agree. Defaults come from ``ManifestDefaults``.
package struct Manifest: Sendable, Hashable {
    /// The manifest file's absolute path.
    package var file: String
    package var name: String
    package var endpoint: Endpoint
    package var auth: AuthSettings
    package var signer: SignerSettings
    package var inputs: InputSettings
    package var recipe: Recipe
    package var notifyURL: String?
    package var shards: ShardLimits
    package var concurrency: ConcurrencyLimits
    package var upload: UploadSettings
    package var retry: RetrySettings
    package var poll: PollSettings
    package var limits: RateLimits
    package var resultLimits: ResultLimits
    package var output: OutputSettings
    /// Where the ledger and the lock live.
    package var stateDir: String
    /// Which part of the batch's files this manifest plans (``partitioned(_:)``); the whole without `--partition`.
    package var partition: Partition = .whole
    /// What the runs tell monitoring (`monitoring`).
    package var monitoring = MonitoringSettings()
    /// `limits.max_usage`: the most usage (bytes) a run's forecast may reach; a run forecast past it is refused.
    package var maxUsage: Int64?
    /// `limits.failure_breaker`: how many first shards failing alike stop a run's creations (``FailureBreaker``); 0 for none.
    package var failureBreaker: Int = ManifestDefaults.failureBreaker
    /// The relative paths a run is limited to (`--files-from`), compared by their bytes; nil: every input.
    package var onlyFiles: Set<PathKey>?
    /// `output.dir` as the manifest gives it, once ``partitioned(_:)`` or ``inStateDirectory(_:)`` changed it (`{partition}`
    /// kept, before `--state-dir` moved outputs that follow it): the job (``ManifestJob``) is the same whichever part runs, from
    /// whichever state directory.
    var jobOutputDir: String?

    /// The directory that holds the manifest.
    package var directory: String { PathText.directory(of: file) }
}

/// Where Assemblies are created.
package enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// The local service, started inside the process on an ephemeral loopback port.
    case embedded
    /// A Transloadit-compatible API: `https://api2.transloadit.com` or a local service's URL.
    case url(String)

    package var description: String {
        switch self {
        case .embedded: return "embedded"
        case .url(let url): return url
        }
    }
}

/// Where a secret or a token is read from; the value itself never sits in a manifest.
package enum SecretSource: Sendable, Hashable, CustomStringConvertible {
    case environment(String)
    case file(String)

    package var description: String {
        switch self {
        case .environment(let name): return "environment variable \(name)"
        case .file(let path): return "file \(path)"
        }
    }
}

/// Which signer turns params into signatures.
package enum SignerSettings: Sendable, Hashable {
    /// An HTTPS signing service holding the Auth Secret; `caFile` is a PEM file of the CAs to trust for it
    /// instead of the system's (a signer with an internal or self-signed certificate).
    case backend(url: String, token: SecretSource, timeout: Duration, caFile: String?)
    /// HMAC on this host with a secret from the environment or a file.
    case local(secret: SecretSource)
    /// The embedded local service's own generated secret.
    case embedded

    /// The manifest's name of the kind.
    package var kind: String {
        switch self {
        case .backend: return "backend"
        case .local: return "local"
        case .embedded: return "embedded"
        }
    }
}

/// What an Assembly does with the files.
package enum Recipe: Sendable, Hashable {
    /// A Template: the account's, its file kept with the manifest, or both; with fields.
    case template(TemplateRecipe)
    /// One resize Step, turned into Assembly Instructions by ``Recipe/steps``.
    case resize(ResizeSettings)
    /// Raw Assembly Instructions.
    case steps(JSONValue)

    /// The manifest's name of the kind.
    package var kind: String {
        switch self {
        case .template: return "template"
        case .resize: return "resize"
        case .steps: return "steps"
        }
    }
}

extension Recipe {
    /// The account's Template `id` with `fields`, its content not known here.
    package static func template(id: String, fields: [String: JSONValue]) -> Recipe {
        .template(TemplateRecipe(id: id, fields: fields))
    }

    /// The Assembly Instructions' steps; nil for a Template without a file, whose steps live at the service.
    package var knownSteps: JSONValue? {
        switch self {
        case let .template(template): template.file?.document.steps
        case let .resize(settings): settings.steps
        case let .steps(instructions): instructions
        }
    }

    /// The `format` of each step that sets one, by name; empty for a Template without a file.
    package var formatsByStep: [String: String] {
        guard let steps = knownSteps?.objectValue else { return [:] }
        return steps.compactMapValues { step in
            guard case .string(let format)? = step.objectValue?["format"] else { return nil }
            return format
        }
    }

    /// The steps with downloaded results under `selection`, sorted; `result` alone for a Template without a file.
    ///
    /// A step has results when it says `result: true` or no other step uses it (Transloadit's rule).
    package func stepsDownloaded(by selection: ResultSelection) -> [String] {
        guard let steps = knownSteps?.objectValue else { return ["result"] }
        let used = Set(steps.values.flatMap { Self.names(in: $0.objectValue?["use"]) })
        return steps.keys.sorted().filter { name in
            let step = steps[name]?.objectValue
            return selection.delivery(ofStep: name) == .download && (step?["result"] == .bool(true) || !used.contains(name))
        }
    }

    /// Every string in a `use` value: a name, a list of names, or objects naming steps.
    static func names(in use: JSONValue?) -> [String] {
        switch use {
        case .string(let name)?: [name]
        case .array(let items)?: items.flatMap { names(in: $0) }
        case .object(let members)?: members.values.flatMap { names(in: $0) }
        default: []
        }
    }

    /// The robot of each step, by name; nil for a Template without a file.
    package var robotsByStep: [String: String]? {
        knownSteps.map(ResultSelection.robots(of:))
    }
}
