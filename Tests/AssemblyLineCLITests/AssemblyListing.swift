import Digests
import Foundation
import TestSupport

/// The local service's account-wide list of Assemblies (`GET /assemblies`, signed), as the tests count what was created.
struct AssemblyListing {
    /// One Assembly as the list shows it.
    struct Item: Hashable {
        var id: String
        var ok: String?
        var error: String?
        var templateID: String?

        var isCompleted: Bool { error == nil && ok == "ASSEMBLY_COMPLETED" }
    }

    let baseURL: String
    let key: String
    let secret: String

    /// Every Assembly the service holds, newest first (one page of up to 5,000).
    func items() async throws -> [Item] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd HH:mm:ss'+00:00'"
        let expires = formatter.string(from: Date().addingTimeInterval(600))
        let params = #"{"auth":{"expires":"\#(expires)","key":"\#(key)"},"pagesize":5000}"#
        let signature = HMAC.transloaditSignature(params: params, secret: secret)
        let body = try await Self.curl(["-G", "\(baseURL)/assemblies", "--data-urlencode", "params=\(params)",
                                  "--data-urlencode", "signature=\(signature)"])
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any],
              let items = object["items"] as? [[String: Any]], let count = object["count"] as? Int else {
            throw Failure(message: "GET /assemblies answered \(String(decoding: body, as: UTF8.self))")
        }
        guard count == items.count else { throw Failure(message: "GET /assemblies holds \(count) Assemblies, more than one page") }
        return items.map { item in
            Item(id: item["id"] as? String ?? "", ok: item["ok"] as? String, error: item["error"] as? String,
                 templateID: item["template_id"] as? String)
        }
    }

    /// What `curl ARGUMENTS` prints; reading to the end waits for it without spinning.
    static func curl(_ arguments: [String]) async throws -> Data {
        let outcome = try await BinaryRunner.run(["-sS", "--max-time", "10"] + arguments, in: FileManager.default.temporaryDirectory,
                                                 executable: URL(fileURLWithPath: "/usr/bin/curl"))
        return Data(outcome.stdout.utf8)
    }

    /// A list request that did not give a list.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
