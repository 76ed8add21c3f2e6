import Foundation
import ImageRobot
import TestSupport
import Testing

@Suite struct ImageRobotErrorTests {
    let directory: TemporaryDirectory
    let resizer: ImageResizer

    init() throws {
        directory = try TemporaryDirectory()
        resizer = try ImageResizer()
    }

    @Test(arguments: [
        ("random.jpg", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })),
        ("empty.png", Data()),
        ("text.webp", Data("not an image at all\n".utf8)),
    ])
    func undecodableInputIsATypedError(name: String, content: Data) throws {
        let input = directory.file(name)
        try content.write(to: URL(fileURLWithPath: input))
        let output = directory.file("out.png")
        #expect {
            _ = try resizer.resize(input: input, output: output, options: ResizeOptions(width: 10))
        } throws: { error in
            guard case let .undecodable(path, reason) = error as? ImageRobotError else { return false }
            return path == input && !reason.isEmpty
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(throws: ImageRobotError.self) { _ = try ImageInspector.inspect(input) }
    }

    @Test func truncatedInputFailsAndLeavesNoOutput() throws {
        let whole = directory.file("whole.jpg")
        try SampleImage.writeGradient(to: whole, width: 300, height: 200, format: .jpg)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let truncated = directory.file("truncated.jpg")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let output = directory.file("out.jpg")
        #expect(throws: ImageRobotError.self) {
            _ = try resizer.resize(input: truncated, output: output, options: ResizeOptions(width: 100, height: 100))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(throws: ImageRobotError.self) { _ = try ImageInspector.inspect(truncated) }
    }

    @Test func invalidOptionsAreReportedAsSuch() throws {
        let input = directory.file("in.png")
        try SampleImage.writeGradient(to: input, width: 20, height: 20, format: .png)
        #expect(throws: ImageRobotError.invalidOptions(.outOfRange(option: "width", value: 0, range: 1...25_000))) {
            _ = try resizer.resize(input: input, output: directory.file("a.png"), options: ResizeOptions(width: 0))
        }
        let outside = CropRectangle(x1: .pixels(30), y1: .pixels(0), x2: .pixels(40), y2: .pixels(5))
        #expect(throws: ImageRobotError.invalidOptions(.cropOutsideImage(outside, image: PixelSize(width: 20, height: 20)))) {
            _ = try resizer.resize(input: input, output: directory.file("b.png"), options: ResizeOptions(crop: outside))
        }
    }

    @Test func writesTheCommonFormatsAndSaysWhetherItCanWriteGIF() {
        #expect(ImageResizer.writableFormats.isSuperset(of: [.jpg, .png, .webp]))
        // GIF needs libvips built with cgif or ImageMagick; the resize tests require it only when present.
        #expect(ImageRobotError.formatUnavailable(.gif).description == "output format 'gif': this libvips build has no gif writer")
    }

    @Test func resizesInParallelFromManyThreads() throws {
        let input = directory.file("shared.png")
        try SampleImage.writeGradient(to: input, width: 640, height: 480, format: .png)
        let resizer = resizer, directory = directory
        let failures = Observed(0)
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            let output = directory.file("parallel-\(index).webp")
            let size = 40 + index * 10
            do {
                let result = try resizer.resize(
                    input: input, output: output, options: ResizeOptions(width: size, height: size, strategy: .fillcrop, format: .webp))
                let decoded = try ImageInspector.inspect(output)
                if result.width != size || decoded.size != PixelSize(width: size, height: size) {
                    failures.increment()
                }
            } catch {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
    }

    @Test func messagesNameTheFileAndTheStep() {
        #expect(ImageRobotError.undecodable(path: "/in/a.jpg", reason: "is not a known file format").description
            == "image '/in/a.jpg': not a decodable image (is not a known file format)")
        #expect(ImageRobotError.processingFailed(path: "/in/a.jpg", step: "writing jpg to '/out/a.jpg'", reason: "disk full").description
            == "image '/in/a.jpg': writing jpg to '/out/a.jpg' failed (disk full)")
    }
}
