import ConfigFormat
import Foundation

/// Reads exactly one of `template`, `resize` and `steps`: what the Assemblies do.
struct ManifestRecipeSection {
    static let kinds = ["template", "resize", "steps"]
    static let resizeKeys = ["width", "height", "strategy", "format", "quality", "background", "zoom"]

    let reader: ConfigReader
    /// The manifest's directory, against which a Template file's path resolves.
    let directory: String
    /// True when a Template file that does not exist yet stands for an empty one (`templates pull` writes it).
    var templateFileMayBeMissing = false

    func decode(_ table: ConfigTable) -> Recipe? {
        let present = Self.kinds.compactMap { kind in table.members[kind].map { (kind, $0.keyMark) } }
            .sorted { $0.1 < $1.1 }
        guard let first = present.first?.0 else {
            reader.report(table.node, field: "", "missing recipe; expected exactly one of template, resize or steps")
            return nil
        }
        for (extra, mark) in present.dropFirst() {
            reader.report(at: mark, field: extra, "\(first) and \(extra) are mutually exclusive; expected exactly one of template, resize or steps")
        }
        switch first {
        case "template": return template(table)
        case "resize": return resize(table)
        default: return steps(table)
        }
    }

    private func template(_ table: ConfigTable) -> Recipe? {
        guard let section = table.table("template", keys: ["id", "file", "fields"]) else { return nil }
        if !section.has("id") && !section.has("file") {
            section.reportMissing("file", expected: "the Template's file (its content, kept with the manifest), its account id, or both")
        }
        let id = section.string("id", expected: "the account's Template ID")
        let file = section.string("file", expected: "the path of the Template's JSON file, relative to the manifest").flatMap { path in
            templateFile(path, in: section)
        }
        var fields: [String: JSONValue] = [:]
        if let member = section.members["fields"] {
            guard case .mapping = member.value.content else {
                reader.report(member.value, field: member.field, "expected a mapping of field names to values, found \(member.value.kindDescription)")
                return nil
            }
            guard let object = reader.json(member.value, field: member.field)?.objectValue else { return nil }
            fields = object
        }
        guard id != nil || file != nil, !section.has("file") || file != nil, !section.has("id") || id != nil else { return nil }
        return .template(TemplateRecipe(id: id, file: file, fields: fields))
    }

    /// The Template file at `path` (relative to the manifest), or nil with its problem reported at `template.file`.
    private func templateFile(_ path: String, in section: ConfigTable) -> TemplateFile? {
        let absolute = PathText.resolve(path, against: directory)
        if templateFileMayBeMissing, !FileManager.default.fileExists(atPath: absolute) {
            return TemplateFile(path: absolute, displayPath: path, document: TemplateDocument(name: nil, content: [:]))
        }
        do {
            return TemplateFile(path: absolute, displayPath: path, document: try TemplateDocument.read(absolute, displayPath: path))
        } catch {
            section.report("file", error.description)
            return nil
        }
    }

    private func resize(_ table: ConfigTable) -> Recipe? {
        guard let section = table.table("resize", keys: Self.resizeKeys) else { return nil }
        let range = ManifestDefaults.resizeDimensionRange
        let width = section.int("width", in: range)
        let height = section.int("height", in: range)
        let strategy = section.choice("strategy", as: ResizeSettings.Strategy.self) ?? ManifestDefaults.resizeStrategy
        let format = section.choice("format", as: ResizeSettings.Format.self, aliases: ResizeSettings.Format.aliases)
        let quality = section.int("quality", in: ManifestDefaults.qualityRange)
        let background = section.string("background", expected: "a color such as #ffffff or #00000000")
        let zoom = section.bool("zoom") ?? true
        if let background, !Self.isColor(background) {
            section.report("background", "expected a color such as #ffffff or #00000000, found '\(background)'")
        }
        if !section.has("width") && !section.has("height") {
            section.reportMissing("width", expected: "width, height or both, in pixels")
        } else if strategy != .fit && strategy != .min_fit && (!section.has("width") || !section.has("height")) {
            section.report("strategy", "strategy \(strategy.rawValue) needs both width and height")
        }
        return .resize(ResizeSettings(width: width, height: height, strategy: strategy, format: format,
                                      quality: quality, background: background, zoom: zoom))
    }

    private func steps(_ table: ConfigTable) -> Recipe? {
        guard let member = table.members["steps"] else { return nil }
        guard case .mapping(let entries) = member.value.content, !entries.isEmpty else {
            reader.report(member.value, field: "steps", "expected a mapping of Step names to Steps, each with a robot")
            return nil
        }
        var valid = true
        for entry in entries {
            let name = entry.key.scalarText ?? ""
            guard case .mapping(let options) = entry.value.content,
                  let robot = options.first(where: { $0.key.scalarText == "robot" }) else {
                reader.report(entry.value, field: "steps.\(name)", "expected a Step: a mapping with robot (such as /image/resize) and its options")
                valid = false
                continue
            }
            if robot.value.scalarText?.hasPrefix("/") != true {
                reader.report(robot.value, field: "steps.\(name).robot", "expected a robot name such as /image/resize")
                valid = false
            }
        }
        guard valid, let instructions = reader.json(member.value, field: "steps") else { return nil }
        return .steps(instructions)
    }

    static func isColor(_ text: String) -> Bool {
        guard text.hasPrefix("#") else { return false }
        let hex = text.dropFirst()
        return [3, 6, 8].contains(hex.count) && hex.allSatisfy(\.isHexDigit)
    }
}
