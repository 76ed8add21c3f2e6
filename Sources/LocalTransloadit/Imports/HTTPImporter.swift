import AssemblyLine
import HTTPMessages
import HTTPServer

/// Imports the URLs an `/http/import` step names: a GET of each, redirects followed under the import rule.
///
/// Each imported file carries its URL as `meta.import_url`, and so does every result made from it (a result starts
/// as a copy of its input). A URL the rule refuses fails the Assembly with `IMPORT_URL_REFUSED` before anything is
/// sent; a fetch that fails, with `IMPORT_FILE_ERROR`. The other URLs are imported either way.
struct HTTPImporter: Sendable {
    let context: ImportContext

    /// Imports each URL of `options` into `assembly`, handing each file or failure to `each`, which returns false to stop.
    func run(_ options: HTTPImportOptions, step: String, assembly: String, each: (Result<ServiceAssemblyFile, AssemblyFailure>) -> Bool) {
        var transfer = HTTPTransferOptions(followRedirects: true, maxRedirects: 5)
        transfer.peers = context.rule.peers
        for url in options.urls {
            let shown = RemoteText.escaped(URLText.withoutCredentials(url), limit: 2048)
            let outcome: Result<ServiceAssemblyFile, AssemblyFailure>
            if let problem = context.rule.problem(with: url) {
                outcome = .failure(AssemblyFailure(code: ServiceErrorCode.importURLRefused.rawValue,
                                                   message: "Step '\(EchoedText.excerpt(step))' refuses to import \(shown): \(problem).",
                                                   step: step, file: shown))
            } else {
                switch context.fetch(.get(ImportURLRule.encoded(url)), options: transfer, assembly: assembly) {
                case .success(let fetched):
                    var file = context.file(fetched, name: Self.name(of: url), assembly: assembly)
                    file.importURL = url
                    outcome = .success(file)
                case .failure(let failure):
                    var code = ServiceErrorCode.importFileError
                    if case .transport(.refusedAddress) = failure { code = .importURLRefused }
                    outcome = .failure(AssemblyFailure(code: code.rawValue,
                                                       message: "Step '\(EchoedText.excerpt(step))' could not import \(shown): \(context.reason(of: failure)).",
                                                       step: step, file: shown))
                }
            }
            guard each(outcome) else { return }
        }
    }

    /// The file name a URL gives: its path's last segment, percent-decoded (`file` when it has none).
    static func name(of url: String) -> String {
        let authority = URLText.authority(of: url)
        let path = url[authority.endIndex...].prefix { $0 != "?" && $0 != "#" }
        let last = path.split(separator: "/").last.map { FormURLDecoder.percentDecode(Array($0.utf8), plusAsSpace: false) } ?? ""
        return CreateAssemblyHandler.baseName(last)
    }
}
