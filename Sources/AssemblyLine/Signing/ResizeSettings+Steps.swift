package import ConfigFormat

extension ResizeSettings {
    /// The name of the resize Step in the Assembly Instructions, and so of its results.
    package static let stepName = "resize"

    /// The Assembly Instructions of this resize: the uploads handled as `:original`, then one `/image/resize` Step.
    ///
    /// Names follow Transloadit's `/image/resize` (shared/reference/transloadit-api.md §6.1):
    /// `width`, `height`, `resize_strategy`, and `format`, `quality`, `background` when set;
    /// `zoom` only when it is false (true is the robot's default). `result: true` keeps the
    /// Step's files in the Assembly Status.
    package var steps: JSONValue {
        var resize: [String: JSONValue] = [
            "robot": .string("/image/resize"),
            "use": .string(":original"),
            "resize_strategy": .string(strategy.rawValue),
            "result": .bool(true),
        ]
        if let width { resize["width"] = .integer(Int64(width)) }
        if let height { resize["height"] = .integer(Int64(height)) }
        if let format { resize["format"] = .string(format.rawValue) }
        if let quality { resize["quality"] = .integer(Int64(quality)) }
        if let background { resize["background"] = .string(background) }
        if !zoom { resize["zoom"] = .bool(false) }
        return .object([
            ":original": .object(["robot": .string("/upload/handle")]),
            Self.stepName: .object(resize),
        ])
    }
}
