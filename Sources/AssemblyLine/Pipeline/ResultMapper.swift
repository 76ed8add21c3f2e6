/// Maps an Assembly's results back to the shard's input files and to their paths under the output directory.
///
/// Files are sent under the field name `file_<index>` (the ledger's file index), so a result maps to
/// its input through its own `field`, or through `original_id` and the upload with that id.
package struct ResultMapper: Sendable {
    package var runID: RunID
    package var shardIndex: Int
    package var output: OutputSettings

    package init(runID: RunID, shardIndex: Int, output: OutputSettings) {
        self.runID = runID
        self.shardIndex = shardIndex
        self.output = output
    }

    /// The form field name of the file with a ledger index.
    package static func field(forFile index: Int) -> String { "file_\(index)" }

    /// The ledger file index a field name stands for, if it is one of ours.
    package static func fileIndex(ofField field: String) -> Int? {
        guard field.hasPrefix("file_") else { return nil }
        return Int(field.dropFirst(5))
    }

    /// The ledger index of the input an execution error names (through `original_id` and its upload), if any.
    package static func failedFileIndex(of status: AssemblyStatus) -> Int? {
        guard let original = status.failedOriginalID,
              let field = status.uploads.first(where: { $0.id == original })?.field else { return nil }
        return fileIndex(ofField: field)
    }

    /// Every result of the status as a ``NewResult`` with its input and output path, steps and files in order.
    package func results(of status: AssemblyStatus, files: [FileRecord]) -> [NewResult] {
        let byIndex = Dictionary(files.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let uploadFields = Dictionary(status.uploads.compactMap { upload in upload.field.map { (upload.id, $0) } },
                                      uniquingKeysWith: { first, _ in first })
        var mapped: [NewResult] = []
        for step in status.results.keys.sorted() {
            for file in status.results[step] ?? [] {
                let field = file.field ?? file.originalID.flatMap { uploadFields[$0] }
                let input = field.flatMap(Self.fileIndex(ofField:)).flatMap { byIndex[$0] }
                let name = file.name ?? file.id
                mapped.append(NewResult(
                    fileIndex: input?.index, step: step, remoteID: file.id, name: name,
                    url: file.downloadURL ?? "", size: file.size ?? 0, md5: file.md5hash, mime: file.mime,
                    width: file.width, height: file.height,
                    outputPath: outputPath(step: step, name: name, ext: file.ext, input: input?.file)))
            }
        }
        return mapped
    }

    /// The absolute path of a result under `output.dir`, from the layout.
    func outputPath(step: String, name: String, ext: String?, input: PlannedFile?) -> String {
        let relative = input?.relativePath ?? name
        let base = PathText.lastComponent(of: relative)
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        let directory = relative.contains("/") ? PathText.directory(of: relative) : "."
        let resultExt = ext ?? name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) } ?? ""
        let values: [OutputLayout.Placeholder: String] = [
            .run: runID.rawValue, .step: step, .shard: String(shardIndex),
            .relpath: directory == "." ? stem : directory + "/" + stem,
            .dir: directory, .stem: stem, .ext: resultExt, .name: name,
        ]
        return PathText.resolve(output.layout.render(values), against: output.dir)
    }
}
