package import ConfigFormat
package import Foundation

/// Builds the `params` JSON of one Assembly creation: auth, instructions and notify URL, serialized once.
///
/// Each attempt gets a fresh nonce and expiry; the string returned is the one signed and the one
/// sent, byte for byte. Keys are sorted and there is no insignificant space (``JSONValue/serialized``).
///
/// ```swift
/// let params = AssemblyParams(key: key, expiresIn: .seconds(3600), recipe: manifest.recipe)
/// let signed = try await signer.signed(params.serialized())
/// ```
package struct AssemblyParams: Sendable, Hashable {
    /// The length of a nonce in hex digits.
    package static let nonceLength = 32

    /// The Auth Key.
    package var key: String
    /// How long after building a signature stays valid.
    package var expiresIn: Duration
    package var instructions: AssemblyInstructions
    package var notifyURL: String?
    /// Fields AssemblyLine adds to every Assembly of a partition's run (`assemblyline_batch`, `assemblyline_partition`):
    /// not part of the recipe, so not of its fingerprint; they win over the recipe's fields of the same name.
    package var tags: [String: JSONValue]
    /// The step that imports each Assembly's inputs when they are remote (`inputs.s3`, `inputs.urls`); nil when they are uploaded.
    package var importStep: ImportStep?
    /// The fields the Assembly's inputs carry (a URL list's rows, ``Shard/fields``): over the recipe's fields, under the ``tags``.
    package var inputFields: [String: JSONValue] = [:]

    package init(key: String, expiresIn: Duration, instructions: AssemblyInstructions, notifyURL: String? = nil,
                 tags: [String: JSONValue] = [:], importStep: ImportStep? = nil) {
        self.key = key
        self.expiresIn = expiresIn
        self.instructions = instructions
        self.notifyURL = notifyURL
        self.tags = tags
        self.importStep = importStep
    }

    /// The params of a manifest recipe.
    package init(key: String, expiresIn: Duration, recipe: Recipe, notifyURL: String? = nil, tags: [String: JSONValue] = [:],
                 importStep: ImportStep? = nil) {
        self.init(key: key, expiresIn: expiresIn, instructions: AssemblyInstructions(recipe), notifyURL: notifyURL, tags: tags,
                  importStep: importStep)
    }

    /// The tags of a run of `batch` that took `partition` of its files: none for a run of the whole batch,
    /// whose Assemblies stay as the recipe makes them (a signing policy need not allow the two fields).
    package static func tags(batch: BatchID?, partition: Partition) -> [String: JSONValue] {
        guard !partition.isWhole else { return [:] }
        var tags: [String: JSONValue] = ["assemblyline_partition": .string(partition.description)]
        if let batch { tags["assemblyline_batch"] = .string(batch.rawValue) }
        return tags
    }

    /// The params text for one attempt, with a fresh nonce from the system's random source; with an ``importStep``, importing
    /// `sources` (the attempt's keys or URLs).
    package func serialized(now: Date, importing sources: [String] = []) -> String {
        var generator = SystemRandomNumberGenerator()
        return value(now: now, nonce: Self.nonce(using: &generator), importing: sources).serialized
    }

    /// The params text of one replay (`POST /assemblies/<id>/replay`), with a fresh nonce: `auth`, `reparse_template` 1
    /// (the Template's current content runs, so that a fix pushed since applies), the recipe's fields and tags, and
    /// `notify_url`; no `template_id` or `steps`, which would replace the parent's instructions.
    package func replaySerialized(now: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        return replaySerialized(now: now, nonce: Self.nonce(using: &generator))
    }

    /// The params text of one replay with a given nonce.
    package func replaySerialized(now: Date, nonce: String) -> String {
        var members = value(now: now, nonce: nonce).objectValue ?? [:]
        members["template_id"] = nil
        members["steps"] = nil
        members["reparse_template"] = .integer(1)
        return JSONValue.object(members).serialized
    }

    /// The params text for one attempt, with a nonce drawn from `generator` (seedable in tests).
    package func serialized<G: RandomNumberGenerator>(now: Date, using generator: inout G) -> String {
        serialized(now: now, nonce: Self.nonce(using: &generator))
    }

    /// The params text with a given nonce: `auth.expires` is `now + expiresIn`, to the second, in UTC.
    package func serialized(now: Date, nonce: String) -> String {
        value(now: now, nonce: nonce).serialized
    }

    /// The params as a JSON value, before serialization; with an ``importStep``, importing `sources`.
    package func value(now: Date, nonce: String, importing sources: [String] = []) -> JSONValue {
        var members = importStep.map { instructions.members(importing: $0, sources: sources) } ?? instructions.members
        if !tags.isEmpty || !inputFields.isEmpty {
            let recipe = members["fields"]?.objectValue ?? [:]
            members["fields"] = .object(recipe.merging(inputFields) { _, input in input }.merging(tags) { _, tag in tag })
        }
        members["auth"] = Self.auth(key: key, expiresIn: expiresIn, now: now, nonce: nonce)
        if let notifyURL { members["notify_url"] = .string(notifyURL) }
        return .object(members)
    }

    /// The `auth` member of any signed request: the key, `expires` at `now + expiresIn` to the second in UTC, and the nonce.
    package static func auth(key: String, expiresIn: Duration, now: Date, nonce: String) -> JSONValue {
        let (seconds, attoseconds) = expiresIn.components
        let expires = UTCDateTime(now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18))
        return .object(["key": .string(key), "expires": .string(expires.authExpiresText), "nonce": .string(nonce)])
    }

    /// A nonce: ``nonceLength`` lowercase hex digits from `generator`.
    package static func nonce<G: RandomNumberGenerator>(using generator: inout G) -> String {
        (0..<(nonceLength / 16)).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
