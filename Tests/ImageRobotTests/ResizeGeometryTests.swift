import ImageRobot
import Testing

@Suite struct ResizeGeometryTests {
    /// One row of the geometry table: a source size, options, and the exact plan expected.
    struct Row: CustomTestStringConvertible, Sendable {
        var source: PixelSize
        var options: ResizeOptions
        var plan: ResizePlan
        var testDescription: String { "\(source) \(options.strategy.rawValue) \(options.width.map(String.init) ?? "-")x\(options.height.map(String.init) ?? "-") zoom:\(options.zoom) \(options.gravity.rawValue)" }
    }

    static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }
    static func rect(_ width: Int, _ height: Int, _ x: Int, _ y: Int) -> PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
    static func row(
        _ source: PixelSize, _ strategy: ResizeStrategy, _ width: Int?, _ height: Int?, zoom: Bool = true,
        gravity: ResizeGravity = .center, scaled: PixelSize, crop: PixelRect? = nil, canvas: ResizePlan.Canvas? = nil
    ) -> Row {
        Row(source: source,
            options: ResizeOptions(width: width, height: height, strategy: strategy, zoom: zoom, gravity: gravity),
            plan: ResizePlan(scaledSize: scaled, cropRegion: crop, canvas: canvas))
    }

    /// The documented table (400×300 into 100×100) and its neighbours.
    static let landscape: [Row] = [
        row(size(400, 300), .fit, 100, 100, scaled: size(100, 75)),
        row(size(400, 300), .minFit, 100, 100, scaled: size(133, 100)),
        row(size(400, 300), .fillcrop, 100, 100, scaled: size(133, 100), crop: rect(100, 100, 16, 0)),
        row(size(400, 300), .fillcrop, 100, 100, gravity: .left, scaled: size(133, 100), crop: rect(100, 100, 0, 0)),
        row(size(400, 300), .fillcrop, 100, 100, gravity: .right, scaled: size(133, 100), crop: rect(100, 100, 33, 0)),
        row(size(400, 300), .fillcrop, 100, 100, gravity: .top, scaled: size(133, 100), crop: rect(100, 100, 16, 0)),
        row(size(400, 300), .fillcrop, 100, 100, gravity: .bottomRight, scaled: size(133, 100), crop: rect(100, 100, 33, 0)),
        row(size(400, 300), .pad, 100, 100, scaled: size(100, 75), canvas: .init(size: size(100, 100), x: 0, y: 12)),
        row(size(400, 300), .pad, 100, 100, gravity: .top, scaled: size(100, 75), canvas: .init(size: size(100, 100), x: 0, y: 0)),
        row(size(400, 300), .pad, 100, 100, gravity: .bottom, scaled: size(100, 75), canvas: .init(size: size(100, 100), x: 0, y: 25)),
        row(size(400, 300), .stretch, 100, 100, scaled: size(100, 100)),
        row(size(400, 300), .crop, 100, 100, scaled: size(400, 300), crop: rect(100, 100, 150, 100)),
        row(size(400, 300), .crop, 100, 100, gravity: .topLeft, scaled: size(400, 300), crop: rect(100, 100, 0, 0)),
        row(size(400, 300), .crop, 100, 100, gravity: .bottomRight, scaled: size(400, 300), crop: rect(100, 100, 300, 200)),
        row(size(400, 300), .crop, 100, 100, gravity: .right, scaled: size(400, 300), crop: rect(100, 100, 300, 100)),
    ]

    static let portraitAndOdd: [Row] = [
        row(size(300, 400), .fit, 100, 100, scaled: size(75, 100)),
        row(size(300, 400), .minFit, 100, 100, scaled: size(100, 133)),
        row(size(300, 400), .fillcrop, 100, 100, scaled: size(100, 133), crop: rect(100, 100, 0, 16)),
        row(size(300, 400), .pad, 100, 100, gravity: .right, scaled: size(75, 100), canvas: .init(size: size(100, 100), x: 25, y: 0)),
        row(size(400, 300), .fit, 400, 300, scaled: size(400, 300)),
        row(size(400, 300), .pad, 200, 150, scaled: size(200, 150)),
        row(size(1000, 1), .fit, 100, 100, scaled: size(100, 1)),
        row(size(3, 2), .fit, 2, 2, scaled: size(2, 1)),
        row(size(2, 3), .minFit, 5, 5, scaled: size(5, 8)),
    ]

    /// A 50×40 source into a 100×100 box: what zoom changes.
    static let small: [Row] = [
        row(size(50, 40), .fit, 100, 100, scaled: size(100, 80)),
        row(size(50, 40), .fit, 100, 100, zoom: false, scaled: size(50, 40)),
        row(size(50, 40), .minFit, 100, 100, scaled: size(125, 100)),
        row(size(50, 40), .minFit, 100, 100, zoom: false, scaled: size(50, 40)),
        row(size(50, 40), .fillcrop, 100, 100, scaled: size(125, 100), crop: rect(100, 100, 12, 0)),
        row(size(50, 40), .fillcrop, 100, 100, zoom: false, scaled: size(50, 40)),
        row(size(50, 40), .pad, 100, 100, scaled: size(100, 80), canvas: .init(size: size(100, 100), x: 0, y: 10)),
        row(size(50, 40), .pad, 100, 100, zoom: false, scaled: size(50, 40), canvas: .init(size: size(100, 100), x: 25, y: 30)),
        row(size(50, 40), .stretch, 100, 100, scaled: size(100, 100)),
        row(size(50, 40), .stretch, 100, 100, zoom: false, scaled: size(50, 40)),
        row(size(50, 40), .crop, 100, 100, scaled: size(125, 100), crop: rect(100, 100, 12, 0)),
        row(size(50, 40), .crop, 100, 100, zoom: false, scaled: size(50, 40)),
        row(size(400, 300), .fillcrop, 500, 100, zoom: false, scaled: size(400, 300), crop: rect(400, 100, 0, 100)),
        row(size(400, 300), .stretch, 500, 100, zoom: false, scaled: size(400, 100)),
        row(size(400, 300), .fit, 100, 100, zoom: false, scaled: size(100, 75)),
        row(size(400, 300), .minFit, 100, 100, zoom: false, scaled: size(133, 100)),
    ]

    /// A missing side takes the original's.
    static let oneSide: [Row] = [
        row(size(400, 300), .fit, 100, nil, scaled: size(100, 75)),
        row(size(400, 300), .fit, nil, 150, scaled: size(200, 150)),
        row(size(400, 300), .fit, 800, nil, scaled: size(400, 300)),
        row(size(400, 300), .stretch, 100, nil, scaled: size(100, 300)),
        row(size(400, 300), .fillcrop, 100, nil, scaled: size(400, 300), crop: rect(100, 300, 150, 0)),
        row(size(400, 300), .fit, nil, nil, scaled: size(400, 300)),
    ]

    @Test(arguments: landscape + portraitAndOdd + small + oneSide)
    func plansTheDocumentedGeometry(row: Row) throws {
        let plan = try ResizeGeometry.plan(source: row.source, options: row.options)
        #expect(plan == row.plan)
    }

    @Test(arguments: [
        (ResizeStrategy.fit, PixelSize(width: 100, height: 75)),
        (.minFit, PixelSize(width: 133, height: 100)),
        (.fillcrop, PixelSize(width: 100, height: 100)),
        (.pad, PixelSize(width: 100, height: 100)),
        (.stretch, PixelSize(width: 100, height: 100)),
        (.crop, PixelSize(width: 100, height: 100)),
    ])
    func outputSizesOfTheDocumentedTable(strategy: ResizeStrategy, expected: PixelSize) throws {
        let plan = try ResizeGeometry.plan(source: Self.size(400, 300), options: ResizeOptions(width: 100, height: 100, strategy: strategy))
        #expect(plan.outputSize == expected)
    }

    @Test(arguments: ResizeStrategy.allCases)
    func zoomFalseNeverEnlarges(strategy: ResizeStrategy) throws {
        for (width, height) in [(100, 100), (30, 200), (200, 30), (64, 48)] {
            let options = ResizeOptions(width: width, height: height, strategy: strategy, zoom: false)
            let plan = try ResizeGeometry.plan(source: Self.size(64, 48), options: options)
            #expect(plan.scaledSize.width <= 64 && plan.scaledSize.height <= 48, "\(strategy) \(width)x\(height): \(plan)")
        }
    }

    @Test func cropRectangleIsCutUnscaledAndOverridesTheStrategy() throws {
        let pixels = CropRectangle(x1: .pixels(10), y1: .pixels(20), x2: .pixels(110), y2: .pixels(70))
        var options = ResizeOptions(width: 10, height: 10, strategy: .stretch, crop: pixels)
        var plan = try ResizeGeometry.plan(source: Self.size(400, 300), options: options)
        #expect(plan == ResizePlan(sourceRegion: Self.rect(100, 50, 10, 20), scaledSize: Self.size(100, 50)))
        #expect(plan.outputSize == Self.size(100, 50))

        options.crop = CropRectangle(
            x1: try .init(parsing: "0%"), y1: try .init(parsing: "50%"), x2: try .init(parsing: "50%"), y2: try .init(parsing: "500px"))
        plan = try ResizeGeometry.plan(source: Self.size(400, 300), options: options)
        #expect(plan.sourceRegion == Self.rect(200, 150, 0, 150))
    }

    @Test func cropRectangleErrors() {
        let outside = CropRectangle(x1: .pixels(500), y1: .pixels(0), x2: .pixels(600), y2: .pixels(10))
        #expect(throws: ImagingError.cropOutsideImage(outside, image: Self.size(400, 300))) {
            _ = try ResizeGeometry.plan(source: Self.size(400, 300), options: ResizeOptions(crop: outside))
        }
        let reversed = CropRectangle(x1: .pixels(50), y1: .pixels(0), x2: .pixels(10), y2: .pixels(10))
        #expect(throws: ImagingError.emptyCrop(reversed)) { try ResizeOptions(crop: reversed).validate() }
        #expect(throws: ImagingError.invalidCropCoordinate("150%")) { _ = try CropRectangle.Coordinate(parsing: "150%") }
        #expect(throws: ImagingError.invalidCropCoordinate("-3")) { _ = try CropRectangle.Coordinate(parsing: "-3") }
    }

    @Test func validatesRanges() {
        #expect(throws: ImagingError.outOfRange(option: "width", value: 0, range: 1...25_000)) {
            try ResizeOptions(width: 0).validate()
        }
        #expect(throws: ImagingError.outOfRange(option: "height", value: 25_001, range: 1...25_000)) {
            try ResizeOptions(height: 25_001).validate()
        }
        #expect(throws: ImagingError.outOfRange(option: "quality", value: 101, range: 1...100)) {
            try ResizeOptions(quality: 101).validate()
        }
        #expect(throws: Never.self) { try ResizeOptions(width: 1, height: 25_000, quality: 1).validate() }
    }

    @Test func parsesOptionNames() throws {
        #expect(try ResizeStrategy(parsing: "min_fit") == .minFit)
        #expect(try ResizeGravity(parsing: "bottom-left") == .bottomLeft)
        #expect(try ImageFormat(parsing: "JPEG") == .jpg)
        #expect(try ImageFormat(parsing: "tif") == .tiff)
        #expect(throws: ImagingError.self) { _ = try ResizeStrategy(parsing: "scale") }
        let error = ImagingError.unknownValue(option: "gravity", value: "middle", expected: ["center", "top"])
        #expect(error.description == "resize option 'gravity' is 'middle'; expected one of center, top")
    }

    @Test(arguments: [
        ("#FF0000", ImageColor(red: 255, green: 0, blue: 0)),
        ("00ff0080", ImageColor(red: 0, green: 255, blue: 0, alpha: 128)),
        ("#000000", ImageColor(red: 0, green: 0, blue: 0)),
        ("none", ImageColor.transparent),
    ])
    func parsesColors(text: String, expected: ImageColor) throws {
        #expect(try ImageColor(parsing: text) == expected)
    }

    @Test(arguments: ["red", "#12345", "#1234567", "#gg0000", "", "#+12345"])
    func refusesBadColors(text: String) {
        #expect(throws: ImagingError.invalidColor(text)) { _ = try ImageColor(parsing: text) }
    }

    @Test func describesPlansAsSteps() throws {
        let plan = try ResizeGeometry.plan(source: Self.size(400, 300), options: ResizeOptions(width: 100, height: 100, strategy: .fillcrop))
        #expect(plan.description == "scale 133x100 → crop 100x100+16+0")
        #expect(ImageColor(red: 1, green: 2, blue: 255, alpha: 16).description == "#0102ff10")
    }
}
