import Foundation
import ImageRobot
import TestSupport
import Testing

@Suite struct ImageResizerTests {
    let directory: TemporaryDirectory
    let resizer: ImageResizer
    /// A 400×300 gradient PNG (red along x, green along y).
    let landscape: String

    init() throws {
        directory = try TemporaryDirectory()
        resizer = try ImageResizer()
        landscape = directory.file("landscape.png")
        try SampleImage.writeGradient(to: landscape, width: 400, height: 300, format: .png)
    }

    static let documentedTable: [(ResizeStrategy, Int, Int)] = [
        (.fit, 100, 75), (.minFit, 133, 100), (.fillcrop, 100, 100), (.pad, 100, 100), (.stretch, 100, 100), (.crop, 100, 100),
    ]

    @Test(arguments: documentedTable)
    func everyStrategyGivesTheDocumentedSize(strategy: ResizeStrategy, width: Int, height: Int) throws {
        let output = directory.file("\(strategy.rawValue).png")
        let result = try resizer.resize(
            input: landscape, output: output, options: ResizeOptions(width: 100, height: 100, strategy: strategy))
        #expect(result.width == width && result.height == height)
        #expect(result.byteCount == Int64(try fileSize(output)))
        let decoded = try ImageInspector.inspect(output)
        #expect(decoded.size == PixelSize(width: width, height: height))
        #expect(decoded.format == .png)
    }

    @Test(arguments: [ImageFormat.jpg, .png, .webp, .gif, .tiff])
    func writesEachFormatThatDecodesBackWithItsLoader(format: ImageFormat) throws {
        try #require(ImageResizer.writableFormats.contains(format), "libvips here cannot write \(format.rawValue)")
        let output = directory.file("out.\(format.fileExtension)")
        let result = try resizer.resize(
            input: landscape, output: output, options: ResizeOptions(width: 120, height: 90, format: format))
        #expect(result.format == format && result.mimeType == format.mimeType)
        let decoded = try ImageInspector.inspect(output)
        #expect(decoded.format == format)
        #expect(decoded.loader.lowercased().contains(format == .jpg ? "jpeg" : format.rawValue))
        #expect(decoded.size == PixelSize(width: 120, height: 90))
    }

    @Test func keepsTheInputFormatWithoutAFormatOption() throws {
        let webp = directory.file("input.webp")
        try SampleImage.writeGradient(to: webp, width: 64, height: 64, format: .webp)
        let output = directory.file("kept")
        let result = try resizer.resize(input: webp, output: output, options: ResizeOptions(width: 32))
        #expect(result.format == .webp)
        #expect(try ImageInspector.inspect(output).format == .webp)
    }

    @Test func qualityChangesTheJPEGSize() throws {
        let low = directory.file("low.jpg"), high = directory.file("high.jpg")
        _ = try resizer.resize(input: landscape, output: low, options: ResizeOptions(format: .jpg, quality: 5))
        _ = try resizer.resize(input: landscape, output: high, options: ResizeOptions(format: .jpg, quality: 98))
        #expect(try fileSize(low) * 2 < (try fileSize(high)))
    }

    @Test(arguments: [(ResizeGravity.left, 0...4), (.center, 26...37), (.right, 57...70)])
    func fillcropGravityPicksTheRegion(gravity: ResizeGravity, red: ClosedRange<Double>) throws {
        let output = directory.file("gravity-\(gravity.rawValue).png")
        _ = try resizer.resize(
            input: landscape, output: output,
            options: ResizeOptions(width: 100, height: 100, strategy: .fillcrop, gravity: gravity))
        let corner = try ImageInspector.pixel(in: output, x: 0, y: 0)
        #expect(red.contains(corner[0]), "top-left red \(corner[0])")
    }

    @Test func cropCutsTheBoxByGravityAndTheRectangleAsGiven() throws {
        let box = directory.file("box.png")
        _ = try resizer.resize(
            input: landscape, output: box,
            options: ResizeOptions(width: 100, height: 100, strategy: .crop, gravity: .bottomRight))
        let corner = try ImageInspector.pixel(in: box, x: 0, y: 0)
        #expect(abs(corner[0] - 300 * 255 / 399) < 2 && abs(corner[1] - 200 * 255 / 299) < 2, "\(corner)")

        let rectangle = directory.file("rectangle.png")
        let crop = CropRectangle(x1: .pixels(10), y1: .pixels(20), x2: .pixels(110), y2: .pixels(70))
        let result = try resizer.resize(input: landscape, output: rectangle, options: ResizeOptions(crop: crop))
        #expect(result.width == 100 && result.height == 50)
        let origin = try ImageInspector.pixel(in: rectangle, x: 0, y: 0)
        #expect(abs(origin[0] - 10 * 255 / 399) < 2 && abs(origin[1] - 20 * 255 / 299) < 2, "\(origin)")
    }

    @Test func padFillsWithTheBackground() throws {
        let opaque = directory.file("pad.png")
        _ = try resizer.resize(
            input: landscape, output: opaque,
            options: ResizeOptions(width: 100, height: 100, strategy: .pad, background: try ImageColor(parsing: "#ff0000")))
        #expect(try ImageInspector.pixel(in: opaque, x: 50, y: 2) == [255, 0, 0])
        #expect(try ImageInspector.pixel(in: opaque, x: 50, y: 50)[2] == 128)

        let clear = directory.file("pad-clear.png")
        _ = try resizer.resize(
            input: landscape, output: clear,
            options: ResizeOptions(width: 100, height: 100, strategy: .pad, background: .transparent))
        let info = try ImageInspector.inspect(clear)
        #expect(info.hasAlpha && info.bands == 4)
        #expect(try ImageInspector.pixel(in: clear, x: 50, y: 2)[3] == 0)
        #expect(try ImageInspector.pixel(in: clear, x: 50, y: 50)[3] == 255)
    }

    @Test func transparentPixelsAreFlattenedForJPEG() throws {
        let translucent = directory.file("translucent.png")
        try SampleImage.writeGradient(to: translucent, width: 40, height: 40, format: .png, alpha: 0)
        #expect(try ImageInspector.inspect(translucent).hasAlpha)
        let output = directory.file("flat.jpg")
        _ = try resizer.resize(input: translucent, output: output, options: ResizeOptions(format: .jpg, background: .white))
        let info = try ImageInspector.inspect(output)
        #expect(!info.hasAlpha && info.bands == 3)
        #expect(try ImageInspector.pixel(in: output, x: 20, y: 20).allSatisfy { $0 > 245 })
    }

    @Test func zoomFalseKeepsASmallerImageItsSize() throws {
        let small = directory.file("small.png")
        try SampleImage.writeGradient(to: small, width: 50, height: 40, format: .png)
        let fit = try resizer.resize(
            input: small, output: directory.file("fit.png"), options: ResizeOptions(width: 100, height: 100, zoom: false))
        #expect(fit.width == 50 && fit.height == 40)
        let zoomed = try resizer.resize(
            input: small, output: directory.file("zoomed.png"), options: ResizeOptions(width: 100, height: 100))
        #expect(zoomed.width == 100 && zoomed.height == 80)
        let padded = directory.file("padded.png")
        let pad = try resizer.resize(
            input: small, output: padded, options: ResizeOptions(width: 100, height: 100, strategy: .pad, zoom: false))
        #expect(pad.width == 100 && pad.height == 100)
        #expect(try ImageInspector.pixel(in: padded, x: 25, y: 30)[2] == 128)
        #expect(try ImageInspector.pixel(in: padded, x: 10, y: 10) == [255, 255, 255])
    }

    @Test func turnsImagesUprightByTheirOrientation() throws {
        let turned = directory.file("turned.jpg")
        try SampleImage.writeGradient(to: turned, width: 400, height: 300, format: .jpg, orientation: 6)
        let fit = try resizer.resize(input: turned, output: directory.file("upright.jpg"), options: ResizeOptions(width: 100, height: 100))
        #expect(fit.width == 75 && fit.height == 100)
        let crop = CropRectangle(x1: .percent(0), y1: .percent(0), x2: .percent(50), y2: .percent(50))
        let cut = try resizer.resize(input: turned, output: directory.file("cut.jpg"), options: ResizeOptions(crop: crop))
        #expect(cut.width == 150 && cut.height == 200)
    }
}
