import AssemblyLine
import ConfigFormat
import Foundation

/// Every Assembly a local service's data directory holds, as the service's own `GET /assemblies` lists them.
///
/// The embedded service of `run` lives only inside the CLI process, so this starts `assemblyline serve`
/// on the same data directory (Assemblies survive restarts), reads the list page by page, and stops it.
struct ServiceAssemblyList {
    /// One list item: the Assembly's ID and its `ok` state (nil when the Assembly ended with an error).
    struct Item: Hashable {
        var id: String
        var ok: String?
    }

    /// What went wrong while listing, with the answer that caused it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The key `serve` is started with; `--no-signature` makes it the only credential the list needs.
    static let key = "crash-test-key"

    let items: [Item]

    /// Starts `serve` on `dataDirectory`, lists every Assembly in pages of `pageSize`, and stops it (exit 0 expected).
    init(dataDirectory: String, in directory: URL, pageSize: Int = 50) async throws {
        let serve = try ServeCommandTests.ServeProcess(
            ["--listen", "127.0.0.1:0", "--data-dir", dataDirectory, "--no-signature", "--key", Self.key], in: directory)
        let base: String
        do {
            base = try await Self.address(of: serve)
            items = try await Self.listAll(at: base, pageSize: pageSize)
        } catch {
            _ = await serve.stop()
            throw error
        }
        let status = await serve.stop()
        guard status == 0 else {
            throw Failure(description: "serve exited \(status): \(serve.errors)")
        }
    }

    /// The base URL from `serve`'s first line, `listening on http://HOST:PORT`, waiting up to 10 s for it.
    private static func address(of serve: ServeCommandTests.ServeProcess) async throws -> String {
        let prefix = "listening on "
        for _ in 0..<500 {
            if let first = serve.output.split(separator: "\n").first, serve.output.contains("\n") {
                guard first.hasPrefix(prefix) else {
                    throw Failure(description: "serve printed '\(first)' first, expected '\(prefix)http://...'")
                }
                return String(first.dropFirst(prefix.count))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "serve did not print its address within 10 s: \(serve.errors)")
    }

    /// Reads pages until the service's `count` is reached.
    private static func listAll(at base: String, pageSize: Int) async throws -> [Item] {
        var items: [Item] = []
        var page = 1
        while true {
            let params = JSONValue.object([
                "auth": .object(["key": .string(key)]),
                "page": .integer(Int64(page)),
                "pagesize": .integer(Int64(pageSize)),
            ]).serialized
            let query = params.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? params
            let answer = try await ServeCommandTests.curl("\(base)/assemblies?params=\(query)")
            let (pageItems, count) = try parse(answer)
            items += pageItems
            if pageItems.isEmpty || items.count >= count { return items }
            page += 1
        }
    }

    /// The items and the total `count` of one list answer.
    private static func parse(_ answer: String) throws -> ([Item], Int) {
        guard let object = (try? JSONValue(parsing: answer))?.objectValue,
              case .array(let values)? = object["items"], case .integer(let count)? = object["count"] else {
            throw Failure(description: "GET /assemblies answered '\(answer.prefix(300))', expected {\"items\": [...], \"count\": N}")
        }
        let items = try values.map { value -> Item in
            guard let id = value.objectValue?["id"]?.stringValue else {
                throw Failure(description: "a list item without an id: \(value.serialized.prefix(300))")
            }
            return Item(id: id, ok: value.objectValue?["ok"]?.stringValue)
        }
        return (items, Int(count))
    }
}
