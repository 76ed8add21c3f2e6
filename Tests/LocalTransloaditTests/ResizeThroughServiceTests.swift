import AssemblyLine
import ConfigFormat
import Foundation
import ImageRobot
@testable import LocalTransloadit
import Testing

/// `/image/resize` through the whole service: geometry of every strategy, zoom, formats, background and gravity.
@Suite(.timeLimit(.minutes(3))) struct ResizeThroughServiceTests {
    /// Runs one Assembly of `steps` (each a resize of `:original`) on one image and returns its results by step.
    static func run(_ steps: [String: [String: JSONValue]], on image: (width: Int, height: Int)) async throws -> (ServiceHarness, [String: JSONValue]) {
        let harness = try ServiceHarness()
        let photo = try harness.image("in.png", width: image.width, height: image.height, format: .png)
        var object: [String: JSONValue] = [:]
        for (name, options) in steps {
            object[name] = .object(options.merging(["robot": .string("/image/resize"), "use": .string(":original")]) { $1 })
        }
        let created = try await harness.create(params: harness.params(["steps": .object(object)]), files: [("image", photo)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "\(done.json.serialized)")
        var results: [String: JSONValue] = [:]
        for name in steps.keys {
            results[name] = try #require(done["results"]?[name]?[0], "no result for \(name)")
        }
        return (harness, results)
    }

    /// Downloads a result and decodes it back.
    static func decode(_ result: JSONValue, with harness: ServiceHarness) async throws -> (info: ImageInfo, path: String) {
        let (response, path) = try await harness.download(try #require(result["url"]?.stringValue))
        #expect(response.status == 200)
        return (try ImageInspector.inspect(path), path)
    }

    /// `bytes_usage` by the published rule: a resize counts its input and its output, the upload a tenth of itself.
    @Test func usageCountsEachResizeInputAndOutputAndATenthOfTheUpload() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("in.png", width: 400, height: 300, format: .png)
        let steps = Dictionary(uniqueKeysWithValues: [("small", 100), ("large", 200)].map { name, width in
            (name, JSONValue.object(["robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(Int64(width)),
                                     "height": .integer(Int64(width)), "format": .string("png")]))
        })
        let created = try await harness.create(params: harness.params(["steps": .object(steps)]), files: [("image", photo)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        let upload = try #require(done["uploads"]?[0]?["size"]?.intValue)
        let small = try #require(done["results"]?["small"]?[0]?["size"]?.intValue)
        let large = try #require(done["results"]?["large"]?[0]?["size"]?.intValue)
        #expect(done["bytes_usage"]?.intValue == upload / 10 + (upload + small) + (upload + large))
        guard case .number(let queued) = try #require(done["queue_duration"]) else {
            Issue.record("queue_duration is not a number: \(done["queue_duration"] ?? .null)")
            return
        }
        #expect(queued >= 0)
    }

    @Test func everyStrategyGivesTheDocumentedSize() async throws {
        let box: [String: JSONValue] = ["width": .integer(100), "height": .integer(100), "format": .string("png")]
        let strategies = ["fit", "min_fit", "fillcrop", "pad", "stretch", "crop"]
        let steps = Dictionary(uniqueKeysWithValues: strategies.map { ($0, box.merging(["resize_strategy": .string($0)]) { $1 }) })
        let (harness, results) = try await Self.run(steps, on: (400, 300))
        let expected = ["fit": (100, 75), "min_fit": (133, 100), "fillcrop": (100, 100), "pad": (100, 100), "stretch": (100, 100), "crop": (100, 100)]
        for (strategy, size) in expected {
            let result = try #require(results[strategy])
            #expect(result["meta"]?["width"]?.intValue == size.0, "\(strategy)")
            #expect(result["meta"]?["height"]?.intValue == size.1, "\(strategy)")
            let (info, _) = try await Self.decode(result, with: harness)
            #expect(info.size == PixelSize(width: size.0, height: size.1), "\(strategy)")
        }
    }

    @Test func zoomFalseNeverEnlarges() async throws {
        let strategies = ["fit", "min_fit", "fillcrop", "stretch", "crop", "pad"]
        let options: [String: JSONValue] = ["width": .integer(100), "height": .integer(100), "zoom": .bool(false), "format": .string("png")]
        let steps = Dictionary(uniqueKeysWithValues: strategies.map { ($0, options.merging(["resize_strategy": .string($0)]) { $1 }) })
        let (harness, results) = try await Self.run(steps, on: (50, 40))
        for strategy in strategies where strategy != "pad" {
            let (info, _) = try await Self.decode(try #require(results[strategy]), with: harness)
            #expect(info.size == PixelSize(width: 50, height: 40), "\(strategy)")
        }
        let (padded, path) = try await Self.decode(try #require(results["pad"]), with: harness)
        #expect(padded.size == PixelSize(width: 100, height: 100))
        #expect(try ImageInspector.pixel(in: path, x: 2, y: 2).prefix(3) == [255, 255, 255])
    }

    @Test func outputFormatsDecodeBack() async throws {
        let formats = ImageFormat.allCases.filter { ImageResizer.writableFormats.contains($0) }
        let steps = Dictionary(uniqueKeysWithValues: formats.map {
            ($0.rawValue, ["width": JSONValue.integer(60), "format": .string($0.rawValue), "quality": .integer(80)])
        })
        let (harness, results) = try await Self.run(steps, on: (120, 90))
        for format in formats {
            let result = try #require(results[format.rawValue])
            #expect(result["mime"]?.stringValue == format.mimeType)
            #expect(result["ext"]?.stringValue == format.fileExtension)
            #expect(result["name"]?.stringValue == "in.\(format.fileExtension)")
            let (info, _) = try await Self.decode(result, with: harness)
            #expect(info.format == format)
            #expect(info.size == PixelSize(width: 60, height: 45))
        }
    }

    @Test func backgroundFillsPadAndGravityPicksTheCrop() async throws {
        let steps: [String: [String: JSONValue]] = [
            "black": ["width": .integer(100), "height": .integer(100), "resize_strategy": .string("pad"), "background": .string("#000000"), "format": .string("png")],
            "left": ["width": .integer(100), "height": .integer(100), "resize_strategy": .string("fillcrop"), "gravity": .string("left"), "format": .string("png")],
            "right": ["width": .integer(100), "height": .integer(100), "resize_strategy": .string("fillcrop"), "gravity": .string("right"), "format": .string("png")],
        ]
        let (harness, results) = try await Self.run(steps, on: (400, 300))
        let (_, black) = try await Self.decode(try #require(results["black"]), with: harness)
        #expect(try ImageInspector.pixel(in: black, x: 50, y: 2).prefix(3) == [0, 0, 0])
        let (_, left) = try await Self.decode(try #require(results["left"]), with: harness)
        let (_, right) = try await Self.decode(try #require(results["right"]), with: harness)
        let leftRed = try ImageInspector.pixel(in: left, x: 0, y: 50)[0]
        let rightRed = try ImageInspector.pixel(in: right, x: 0, y: 50)[0]
        #expect(leftRed < 10)
        #expect(rightRed > 50)
    }
}
