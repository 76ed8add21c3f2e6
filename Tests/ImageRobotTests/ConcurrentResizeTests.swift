@testable import ImageRobot
import Foundation
import TestSupport
import Testing

/// libvips used from several threads at once, as the service's workers use it.
@Suite struct ConcurrentResizeTests {
    /// liborc 0.4.33 (Debian 12) races when two threads compile or free ORC programs at once
    /// (upstream e48fa54); with libvips' cache off every resize does both, so the vector paths stay off.
    @Test func theVectorPathsAreOffOnceLibvipsIsReady() throws {
        _ = try ImageResizer()
        #expect(!VipsRuntime.usesVectorPaths)
    }

    @Test func fourThreadsResizeAtOnceAndEachGetsItsOwnRightResult() async throws {
        let directory = try TemporaryDirectory()
        let input = directory.file("in.jpg")
        try SampleImage.writeGradient(to: input, width: 160, height: 120, format: .jpg)
        let resizer = try ImageResizer()
        let sizes = try await withThrowingTaskGroup(of: [String].self) { group in
            for thread in 0..<4 {
                group.addTask {
                    try (0..<25).map { index in
                        let side = 16 + thread * 8 + index
                        let result = try resizer.resize(input: input, output: directory.file("out-\(thread)-\(index).png"),
                                                        options: ResizeOptions(width: side, height: side, strategy: .stretch))
                        return "\(result.width)x\(result.height)" == "\(side)x\(side)" ? "ok" : "\(result.width)x\(result.height)"
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(sizes == Array(repeating: "ok", count: 100))
    }
}
