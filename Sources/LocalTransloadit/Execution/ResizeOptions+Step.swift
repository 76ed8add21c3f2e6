import AssemblyLine
import ConfigFormat
import HTTPServer
import ImageRobot

extension ResizeOptions {
    /// The options of an `/image/resize` step's JSON (transloadit-api.md §6.1); other keys are ignored.
    ///
    /// Numbers may come as JSON numbers or as numeric strings, booleans as `true`/`false` or their
    /// strings, and `crop` as an object or as a JSON string of one, as the API accepts them.
    /// - Throws: an `IMAGE_RESIZE_VALIDATION` ``APIError`` naming the step and the option.
    init(step name: String, json options: [String: JSONValue]) throws(APIError) {
        self.init()
        func invalid(_ detail: String) -> APIError {
            .validation(.imageResizeValidation, "Step '\(EchoedText.excerpt(name))': \(detail)")
        }
        do {
            width = try Self.integer(options["width"], option: "width")
            height = try Self.integer(options["height"], option: "height")
            if let quality = try Self.integer(options["quality"], option: "quality") { self.quality = quality }
            if let text = try Self.text(options["resize_strategy"], option: "resize_strategy") {
                strategy = try ResizeStrategy(parsing: text)
            }
            if let text = try Self.text(options["gravity"], option: "gravity") { gravity = try ResizeGravity(parsing: text) }
            if let text = try Self.text(options["format"], option: "format") { format = try ImageFormat(parsing: text) }
            if let text = try Self.text(options["background"], option: "background") { background = try ImageColor(parsing: text) }
            if let zoom = try Self.flag(options["zoom"], option: "zoom") { self.zoom = zoom }
            if let crop = options["crop"], crop != .null {
                self.crop = try Self.crop(crop)
                strategy = .crop
            }
            try validate()
        } catch let error as ImagingError {
            throw invalid(error.description)
        } catch let error as OptionError {
            throw invalid(error.message)
        } catch {
            throw invalid("\(error)")
        }
    }

    /// A malformed option that ``ImagingError`` has no case for.
    private struct OptionError: Error {
        var message: String
    }

    private static func integer(_ value: JSONValue?, option: String) throws -> Int? {
        switch value {
        case nil, .null?: return nil
        case .integer(let number)?: return Int(exactly: number) ?? Int.max
        case .number(let number)? where number == number.rounded() && abs(number) < 1e15: return Int(number)
        case .string(let text)?:
            if let number = Int(text) { return number }
        default: break
        }
        throw OptionError(message: "resize option '\(EchoedText.excerpt(option))' must be a whole number")
    }

    private static func text(_ value: JSONValue?, option: String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw OptionError(message: "resize option '\(EchoedText.excerpt(option))' must be a string")
        }
    }

    private static func flag(_ value: JSONValue?, option: String) throws -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case .string("true")?: return true
        case .string("false")?: return false
        default: throw OptionError(message: "resize option '\(EchoedText.excerpt(option))' must be true or false")
        }
    }

    private static func crop(_ value: JSONValue) throws -> CropRectangle {
        var object = value.objectValue
        if case .string(let text) = value {
            object = (try? JSONValue(parsing: text))?.objectValue
        }
        guard let object else {
            throw OptionError(message: "resize option 'crop' must be an object {x1, y1, x2, y2}")
        }
        func coordinate(_ key: String) throws -> CropRectangle.Coordinate {
            switch object[key] {
            case .integer(let number)?: return try CropRectangle.Coordinate(parsing: String(number))
            case .string(let text)?: return try CropRectangle.Coordinate(parsing: text)
            default: throw OptionError(message: "resize option 'crop' needs '\(EchoedText.excerpt(key))' as pixels or a percentage")
            }
        }
        return CropRectangle(x1: try coordinate("x1"), y1: try coordinate("y1"), x2: try coordinate("x2"), y2: try coordinate("y2"))
    }
}
