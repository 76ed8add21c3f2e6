import AssemblyLine
import ConfigFormat
import HTTPServer
import ImageRobot

/// What an Assembly's steps do, checked before any file is stored: robots known, `use` resolvable, options valid.
///
/// Built from the request's params with the Template merged under them. Steps are kept in an
/// order where every step comes after the steps it uses, so a worker runs them front to back.
struct ServiceInstructions: Sendable {
    /// One step: its robot, its inputs, and whether its files appear in `results`.
    struct Step: Sendable {
        enum Robot: Sendable {
            /// `/upload/handle`: the uploads themselves.
            case uploadHandle
            /// `/image/resize` with its options.
            case imageResize(ResizeOptions)
            /// `/s3/store`, standing in for every export Robot: files copied into the data directory's
            /// `storage/`, reported at URLs that refuse to serve them (private storage).
            case s3Store
            /// `/s3/import` or `/minio/import`: objects of a bucket the service's Template Credentials reach.
            case bucketImport(BucketImportOptions)
            /// `/http/import`: files fetched from URLs.
            case httpImport(HTTPImportOptions)
        }

        var name: String
        var robot: Robot
        /// Step names this step reads; `:original` means the uploads.
        var inputs: [String]
        var isResult: Bool
    }

    /// The name of the uploads as an input.
    static let original = ":original"

    /// The params the instructions were read from, before the Template was merged under them.
    var requestParams: JSONValue
    var mergedParams: JSONValue
    var templateID: String?
    var steps: [Step]

    /// Checks `params` (the parsed `params` object), with `template`'s content merged under them and the Assembly's fields
    /// put into its steps (``FieldVariables``), against the robots the service has.
    ///
    /// - Throws: an ``APIError`` with the API's code: `TEMPLATE_DENIES_STEPS_OVERRIDE`, `ASSEMBLY_NO_STEPS`,
    ///   `ASSEMBLY_INVALID_STEPS`, `ASSEMBLY_STEP_UNKNOWN_ROBOT`, `ASSEMBLY_STEP_INVALID_USE`,
    ///   `ASSEMBLY_STEP_UNKNOWN_USE`, `IMAGE_RESIZE_VALIDATION`, `S3_IMPORT_VALIDATION` or `HTTP_IMPORT_VALIDATION`.
    init(params: [String: JSONValue], template: ServiceTemplate?) throws(APIError) {
        let merged = try template?.merged(under: params) ?? params
        self.requestParams = .object(params)
        self.mergedParams = .object(merged)
        self.templateID = template?.id
        guard let rawSteps = merged["steps"], rawSteps != .null else {
            throw .validation(.assemblyNoSteps, "The params have no steps and no template_id.")
        }
        let stepsValue = FieldVariables.interpolate(rawSteps, fields: merged["fields"]?.objectValue ?? [:])
        guard let stepObjects = stepsValue.objectValue else {
            throw .validation(.assemblyInvalidSteps, "steps must be an object of step names to steps.")
        }
        guard !stepObjects.isEmpty else {
            throw .validation(.assemblyEmptySteps, "steps is empty.")
        }
        var parsed: [String: (step: Step, explicitResult: Bool?)] = [:]
        for (name, value) in stepObjects {
            parsed[name] = try Self.step(name: name, value: value)
        }
        for (name, entry) in parsed {
            for input in entry.step.inputs where input != Self.original && parsed[input] == nil {
                throw .validation(.assemblyStepUnknownUse, "Step '\(EchoedText.excerpt(name))' uses '\(EchoedText.excerpt(input))', which is not a step.")
            }
        }
        let used = Set(parsed.values.flatMap(\.step.inputs))
        var steps: [String: Step] = [:]
        for (name, entry) in parsed {
            var step = entry.step
            step.isResult = entry.explicitResult ?? !used.contains(name)
            steps[name] = step
        }
        self.steps = try Self.ordered(steps)
    }

    private static func step(name: String, value: JSONValue) throws(APIError) -> (step: Step, explicitResult: Bool?) {
        guard let object = value.objectValue else {
            throw .validation(.assemblyInvalidSteps, "Step '\(EchoedText.excerpt(name))' must be an object.")
        }
        guard let robot = object["robot"]?.stringValue else {
            throw .validation(.assemblyInvalidSteps, "Step '\(EchoedText.excerpt(name))' has no robot.")
        }
        var explicitResult: Bool?
        if case .bool(let flag)? = object["result"] { explicitResult = flag }
        switch robot {
        case "/upload/handle":
            return (Step(name: name, robot: .uploadHandle, inputs: [], isResult: false), explicitResult)
        case "/image/resize":
            if name == original {
                throw .validation(.assemblyInvalidSteps, "Step ':original' must use the /upload/handle robot.")
            }
            let options = try ResizeOptions(step: name, json: object)
            let inputs = try uses(object["use"], step: name)
            return (Step(name: name, robot: .imageResize(options), inputs: inputs, isResult: false), explicitResult)
        case "/s3/store":
            let inputs = try uses(object["use"], step: name)
            return (Step(name: name, robot: .s3Store, inputs: inputs, isResult: false), explicitResult)
        case "/s3/import", "/minio/import":
            let options = try BucketImportOptions(step: name, robot: robot, json: object)
            return (Step(name: name, robot: .bucketImport(options), inputs: [], isResult: false), explicitResult)
        case "/http/import":
            let options = try HTTPImportOptions(step: name, json: object)
            return (Step(name: name, robot: .httpImport(options), inputs: [], isResult: false), explicitResult)
        default:
            throw .validation(.assemblyStepUnknownRobot, "Step '\(EchoedText.excerpt(name))' uses the unknown robot '\(EchoedText.excerpt(robot))'.")
        }
    }

    /// The step names of a `use`: a name, a list of names or `{name, as}` objects, or `{steps: [...]}`; none means `:original`.
    static func uses(_ value: JSONValue?, step: String) throws(APIError) -> [String] {
        let invalid = APIError.validation(.assemblyStepInvalidUse, "Step '\(EchoedText.excerpt(step))' has an invalid use.")
        switch value {
        case nil, .null?:
            return [original]
        case .string(let name)?:
            return [name]
        case .array(let items)?:
            var names: [String] = []
            for item in items {
                if let name = item.stringValue ?? item.objectValue?["name"]?.stringValue {
                    names.append(name)
                } else {
                    throw invalid
                }
            }
            guard !names.isEmpty else { throw invalid }
            return names
        case .object(let members)?:
            guard let inner = members["steps"], inner.objectValue == nil else { throw invalid }
            return try uses(inner, step: step)
        default:
            throw invalid
        }
    }

    /// The steps in an order where each comes after its inputs; a cycle is an invalid `use`.
    private static func ordered(_ steps: [String: Step]) throws(APIError) -> [Step] {
        var order: [Step] = []
        var done = Set<String>()
        var remaining = steps.keys.sorted()
        while !remaining.isEmpty {
            let ready = remaining.filter { name in
                steps[name]!.inputs.allSatisfy { $0 == original || done.contains($0) }
            }
            guard !ready.isEmpty else {
                throw .validation(.assemblyStepInvalidUse, "Steps \(EchoedText.excerpt(remaining.joined(separator: ", "))) use each other in a cycle.")
            }
            for name in ready {
                order.append(steps[name]!)
                done.insert(name)
            }
            remaining.removeAll { done.contains($0) }
        }
        return order
    }
}
