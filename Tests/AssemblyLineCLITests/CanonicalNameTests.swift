import Foundation
import ImageRobot
import TestSupport
import Testing

/// Inputs whose names are canonically equivalent but different bytes are different files, through the built binary.
///
/// Swift's `String ==` takes `café` in NFC and in NFD for one name; Linux keeps them as two files.
/// Each input here is a gradient of its own shape, so an output's dimensions tell which input's
/// pixels it holds: a run that uploads one file's bytes for another's, or lets one output take
/// another's place, shows as a wrong shape or a missing output.
@Suite(.timeLimit(.minutes(3))) struct CanonicalNameTests {
    /// Groups of names that are canonically equivalent, each a different kind of equivalence.
    static let groups: [[String]] = [
        ["caf\u{E9}", "cafe\u{301}"],  // a precomposed letter and its decomposition
        ["\u{D55C}", "\u{1112}\u{1161}\u{11AB}"],  // a Hangul syllable and its jamo
        ["\u{212B}", "\u{C5}", "A\u{30A}"],  // the angstrom sign, its canonical letter, and that decomposed
        ["a\u{323}\u{307}", "a\u{307}\u{323}"],  // two combining marks in either order
    ]

    /// Input shapes, one a name, and the shape each has once fit into 160×120.
    static let shapes: [(input: (Int, Int), output: (Int, Int))] = [
        ((400, 100), (160, 40)), ((300, 300), (120, 120)), ((100, 400), (30, 120)), ((400, 200), (160, 80)),
        ((200, 400), (60, 120)), ((480, 120), (160, 40)), ((160, 320), (60, 120)), ((240, 240), (120, 120)),
        ((320, 80), (160, 40)),
    ]

    @Test func eachOutputIsMadeFromItsOwnInputAndTheNextNightSkipsEveryOne() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("job/m.yaml", """
            version: 1
            name: equivalent
            inputs: {include: "in/*.png", base: in}
            resize: {width: 160, height: 120, strategy: fit, format: png}
            shards: {files: 4}
            poll: {interval: 100ms}
            state_dir: state

            """)
        let input = directory.file("job/in")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        let names = Self.groups.flatMap { $0 }
        #expect(Set(names.map { Array($0.utf8) }).count == names.count && Set(names).count == Self.groups.count,
                "the names differ as bytes and are alike as Swift strings")
        var expected: [[UInt8]: (Int, Int)] = [:]
        for (name, shape) in zip(names, Self.shapes) {
            try SampleImage.writeGradient(to: "\(input)/\(name).png", width: shape.input.0, height: shape.input.1, format: .png)
            expected[Array("\(name).png".utf8)] = shape.output
        }

        let first = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("files 9 done, 0 failed, 0 skipped"), "\(first.stdout)")
        let output = directory.file("job/state/output/resize")
        let found = try Self.names(in: output)
        #expect(Set(found) == Set(expected.keys), "one output for each input: \(found.map { String(decoding: $0, as: UTF8.self).debugDescription })")
        for (name, shape) in expected where found.contains(name) {
            let path = output + "/" + String(decoding: name, as: UTF8.self)
            let info = try ImageInspector.inspect(path)
            #expect(info.width == shape.0 && info.height == shape.1,
                    "\(String(decoding: name, as: UTF8.self).unicodeScalars.map { String($0.value, radix: 16) }) is \(info.width)x\(info.height)")
        }

        let second = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(second.status == 0 && second.stdout.contains("files 0 done, 0 failed, 9 skipped"), "\(second.stdout)")
    }

    /// The names of the files in `directory`, as the bytes the file system holds.
    static func names(in directory: String) throws -> [[UInt8]] {
        guard let stream = opendir(directory) else { throw POSIXError(.ENOENT) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
        }
        return names
    }
}
