#if canImport(Glibc)
import Glibc
#endif

/// Reads a `BodyPlan` front to back into caller-supplied buffers, opening one file at a time.
///
/// A transport's read callback calls `read(into:)` until it returns 0, and `seek(to:)` when it must
/// send the body again (libcurl rewinds a body when it retries on a reused connection). A file
/// that ends before its range does is an error naming the file: it changed after it was planned.
/// One reader belongs to one thread at a time.
package final class BodyPlanReader {
    package let plan: BodyPlan
    /// The number of body bytes delivered so far, from the start of the plan.
    package private(set) var position: Int64 = 0

    private var segmentIndex = 0
    private var offsetInSegment: Int64 = 0
    private var openFile: (path: String, descriptor: Int32)?

    package init(plan: BodyPlan) {
        self.plan = plan
    }

    deinit {
        closeFile()
    }

    /// Fills the start of `buffer` with the next body bytes and returns how many; 0 means the body is complete.
    ///
    /// - Throws: `BodyPlanError.fileIO` when a file cannot be opened or read, or is shorter than its range.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(BodyPlanError) -> Int {
        var filled = 0
        while filled < buffer.count, segmentIndex < plan.segments.count {
            let segment = plan.segments[segmentIndex]
            let remaining = segment.length - offsetInSegment
            guard remaining > 0 else {
                advanceSegment()
                continue
            }
            let wanted = Int(min(Int64(buffer.count - filled), remaining))
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + wanted)])
            let count = switch segment {
            case let .bytes(bytes):
                copy(bytes, from: Int(offsetInSegment), into: target)
            case let .file(path, offset, length):
                try readFile(path: path, at: offset + offsetInSegment, into: target, rangeEnd: offset + length)
            }
            filled += count
            offsetInSegment += Int64(count)
            position += Int64(count)
        }
        return filled
    }

    /// Moves to `offset` bytes from the start of the body, so that the next read continues from there.
    ///
    /// - Returns: false, without moving, when `offset` lies outside the body.
    @discardableResult
    package func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= plan.contentLength else { return false }
        closeFile()
        segmentIndex = 0
        offsetInSegment = offset
        position = offset
        while segmentIndex < plan.segments.count, offsetInSegment >= plan.segments[segmentIndex].length {
            offsetInSegment -= plan.segments[segmentIndex].length
            segmentIndex += 1
        }
        return true
    }

    // MARK: - Segments

    private func advanceSegment() {
        segmentIndex += 1
        offsetInSegment = 0
    }

    private func copy(_ bytes: [UInt8], from start: Int, into target: UnsafeMutableRawBufferPointer) -> Int {
        bytes.withUnsafeBytes { source in
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + target.count)]))
        }
        return target.count
    }

    private func readFile(
        path: String, at fileOffset: Int64, into target: UnsafeMutableRawBufferPointer, rangeEnd: Int64
    ) throws(BodyPlanError) -> Int {
        let descriptor = try descriptor(for: path)
        while true {
            let count = pread(descriptor, target.baseAddress, target.count, off_t(fileOffset))
            if count > 0 { return count }
            if count == 0 {
                throw .fileIO(path: path, reason: "ends at byte \(fileOffset), expected \(rangeEnd) (changed since planned)")
            }
            if errno != EINTR { throw .fileIO(path: path, reason: "read: " + String(cString: strerror(errno))) }
        }
    }

    private func descriptor(for path: String) throws(BodyPlanError) -> Int32 {
        // By bytes: `==` would take a canonically equivalent name (café in NFC and in NFD) for this file.
        if let openFile, openFile.path.utf8.elementsEqual(path.utf8) { return openFile.descriptor }
        closeFile()
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileIO(path: path, reason: "open: " + String(cString: strerror(errno))) }
        openFile = (path, descriptor)
        return descriptor
    }

    private func closeFile() {
        if let openFile {
            close(openFile.descriptor)
        }
        openFile = nil
    }
}

@available(*, unavailable)
extension BodyPlanReader: Sendable {}
