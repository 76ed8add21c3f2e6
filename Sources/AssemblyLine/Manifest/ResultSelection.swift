package import ConfigFormat

/// Which steps' results are downloaded (`output.steps`), and which steps store into the customer's own storage.
///
/// Results of an export Robot (`/s3/store`, `/gcs/store`, ...: every `/<service>/store`) point at
/// the customer's storage, often private: they are recorded where they went and not fetched,
/// unless `output.steps` names their step. docs/manifest.md has the defaults.
package struct ResultSelection: Sendable, Hashable {
    /// What becomes of one step's results.
    package enum Delivery: Sendable, Hashable {
        /// Downloaded under `output.dir`, verified.
        case download
        /// Stored by an export Robot: recorded where it went (its URL), not fetched.
        case export
        /// Left out by `output.steps`: recorded, not fetched, and not counted as the file's result.
        case record
    }

    /// The steps whose results are downloaded; nil for every step.
    package var downloaded: Set<String>?
    /// The steps of export Robots, as far as the recipe shows them (a Template's steps are not seen).
    package var exported: Set<String>

    package init(downloaded: Set<String>?, exported: Set<String>) {
        self.downloaded = downloaded
        self.exported = exported
    }

    /// What becomes of the results of `step`.
    package func delivery(ofStep step: String) -> Delivery {
        if downloaded?.contains(step) ?? true { return .download }
        return exported.contains(step) ? .export : .record
    }

    /// True for a Robot that stores files into the customer's storage: every `/<service>/store`
    /// (`/s3/store`, `/gcs/store`, `/azure/store`, `/sftp/store`, `/youtube/store`, ...).
    package static func isExportRobot(_ robot: String) -> Bool {
        let parts = robot.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].isEmpty && !parts[1].isEmpty && parts[2] == "store"
    }

    /// The robot of each step of Assembly Instructions, by step name.
    package static func robots(of steps: JSONValue) -> [String: String] {
        var robots: [String: String] = [:]
        for (name, step) in steps.objectValue ?? [:] {
            if case let .string(robot)? = step.objectValue?["robot"] { robots[name] = robot }
        }
        return robots
    }

    /// The selection `output.steps` leaves at its default: a Template's every step; else every step but the export Robots'.
    package static func defaults(for recipe: Recipe) -> ResultSelection {
        guard let robots = recipe.robotsByStep else { return ResultSelection(downloaded: nil, exported: []) }
        let exported = Set(robots.filter { isExportRobot($0.value) }.keys)
        return ResultSelection(downloaded: Set(robots.keys).subtracting(exported), exported: exported)
    }
}
