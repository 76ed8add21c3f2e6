import AssemblyLine
import Digests

/// `assemblyline templates pull|diff|push|list MANIFEST`: the manifest's Template file against the account's Template.
struct TemplatesCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "Keep the manifest's Template file and the account's Template in step: pull, diff, push, list.",
        discussion: """
            pull writes the account's Template (template.id) into template.file as stable JSON (name, \
            require_signature_auth, then the content's keys, sorted) and the account's content hash beside it \
            (FILE.sync, committed with the file). diff prints how the file differs from the account's Template, one \
            member a line (~ changed, - only in the file, + only at the account) and exits 0 when they are the same, \
            1 when they differ, as diff does. push updates the account's Template from the file, and refuses (65) \
            when the account changed since the last pull or push (FILE.sync), unless --force; without template.id \
            it creates the Template and prints its ID for the manifest. list prints a page of the account's \
            Templates. A service that cannot be reached exits 69, refused credentials 77, a secret that is missing 78.
            """,
        arguments: [ArgumentSpec(name: "action", help: "pull, diff, push or list."),
                    ArgumentSpec(name: "manifest", help: "The job manifest whose template: names the file and the account's Template.")],
        options: [OptionSpec(name: "force", help: "push: overwrite the account's Template even if it changed since the last pull or push."),
                  OptionSpec(name: "page", valueName: "n", help: "list: the page, from 1 (default 1), of 50 Templates, newest first.")])

    /// What the command does with the manifest's Template file.
    enum FileAction: String {
        case pull, diff, push
    }

    /// nil for list, which needs no file.
    var fileAction: FileAction?
    var manifestPath: String
    var force: Bool
    var page: Int

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        guard text == "list" || FileAction(rawValue: text) != nil else {
            throw UsageError("expected pull, diff, push or list, found '\(text)'")
        }
        fileAction = FileAction(rawValue: text)
        guard let manifestPath = values.positional(1) else { throw UsageError("expected the manifest after \(text)") }
        self.manifestPath = manifestPath
        force = values.flag("force")
        page = try values.integer("page", in: 1...1_000_000) ?? 1
    }

    func validate() throws {
        if force && fileAction != .push { throw UsageError("--force is for push") }
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let manifest = try ConfigFileLoader.manifest(manifestPath, templateFileMayBeMissing: fileAction == .pull)
        let access = try RunWiring.templateAccess(of: manifest, clock: context.clock)
        guard let fileAction else {
            let listing = try await access.list(page: page, pageSize: 50)
            console.out(TextTable.render(header: ["ID", "NAME", "MODIFIED"], rows: listing.items.map { template in
                [template.id, template.document.name ?? "", template.modified ?? ""]
            }))
            console.line("\(listing.items.count) of \(listing.count) on page \(page)")
            return
        }
        let sync = try TemplateSync(manifest, access: access, digester: LibcryptoFileDigester()) { text, path in
            try WholeFileWriter.write(text, to: path)
        }
        guard case .template(let recipe) = manifest.recipe, let file = recipe.file else { return }
        switch fileAction {
        case .pull:
            let changed = try await sync.pull()
            console.line("pulled Template \(recipe.id ?? "") into \(file.displayPath)" + (changed ? "" : " (unchanged)"))
        case .diff:
            let differences = try await sync.differences()
            guard !differences.isEmpty else { return }
            console.out(differences.map { "\($0)\n" }.joined())
            throw CheckFound(count: differences.count)
        case .push:
            switch try await sync.push(force: force) {
            case .updated(let id): console.line("pushed \(file.displayPath) to Template \(id)")
            case .unchanged(let id): console.line("Template \(id) already holds \(file.displayPath): nothing sent")
            case .created(let id): console.line("created Template \(id) from \(file.displayPath); add `id: \(id)` under template: in \(manifestPath)")
            }
        }
    }
}
