import AssemblyLine
import ConfigFormat
import CurlTransport
@testable import LocalTransloadit
import TestSupport

/// Assemblies with no uploads whose steps import their files.
extension ServiceHarness {
    /// A service that imports through libcurl, from test endpoints on this machine unless `allowsLocalImports` is false.
    static func importing(directory: TemporaryDirectory? = nil, allowsLocalImports: Bool = true,
                          configure: (inout LocalServiceConfiguration) -> Void = { _ in }) throws -> ServiceHarness {
        try ServiceHarness(directory: directory) { configuration in
            configuration.importTransport = CurlTransport()
            configuration.allowsLocalImports = allowsLocalImports
            configure(&configuration)
        }
    }

    /// Creates an Assembly of `steps` (or of the Template `templateID` with them) without files and waits for its end.
    func runImport(_ steps: [String: JSONValue], templateID: String? = nil) async throws -> Answer {
        var members: [String: JSONValue] = ["steps": .object(steps)]
        if let templateID { members["template_id"] = .string(templateID) }
        let created = try await create(params: params(members))
        guard created.status == 200, let id = created["assembly_id"]?.stringValue else { return created }
        return try await waitForEnd(id)
    }

    /// An `/image/resize` step of `use` to `width` pixels wide.
    static func resizeStep(of use: String, width: Int) -> JSONValue {
        .object(["robot": .string("/image/resize"), "use": .string(use), "width": .integer(Int64(width)), "result": .bool(true)])
    }
}
