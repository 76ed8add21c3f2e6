extension JSONCursor {
    /// A number as Foundation's `JSONDecoder` reads an `Int64`, nil where it refuses it.
    ///
    /// The number must have JSON's form. Written without fraction or exponent it is read exactly, nil beyond
    /// `Int64`; otherwise it counts when its `Double` is a whole number in range (`12.0`, `1e2`, `-0.0`, and
    /// `1e-400`, which rounds to 0) and, from 2^53 on, it is the decimal's whole part (`9007199254740993.5` is
    /// 9007199254740993), never `Int64.min`.
    package func integer(_ number: JSONNumber) -> Int64? {
        guard let form = form(of: number) else { return nil }
        let negative = bytes[number.start] == UInt8(ascii: "-")
        guard form.isPlain else {
            guard let double = Double(text(of: number)), let value = Int64(exactly: double) else { return nil }
            if double.magnitude < 0x1p53 { return value }
            guard let magnitude = wholePart(of: number, form), magnitude <= UInt64(Int64.max) else { return nil }
            return negative ? -Int64(magnitude) : Int64(magnitude)
        }
        var magnitude: UInt64 = 0
        for byte in bytes[(negative ? number.start + 1 : number.start)..<number.end] {
            guard let next = Self.appending(byte - UInt8(ascii: "0"), to: magnitude) else { return nil }
            magnitude = next
        }
        return negative ? Int64(exactly: -Int128(magnitude)) : Int64(exactly: magnitude)
    }

    /// A number as Foundation's `JSONDecoder` reads a `Double`, nil where it refuses it: not JSON's form, beyond
    /// the `Double`s (`1e400`), or rounded to zero from a number that is not (`1e-400`).
    package func number(_ number: JSONNumber) -> Double? {
        guard let form = form(of: number) else { return nil }
        if form.isPlain, number.end - number.start <= 15 { return Double(integer(number)!) }
        guard let value = Double(text(of: number)), value.isFinite else { return nil }
        guard value == 0 else { return value }
        let mantissa = bytes[number.start..<(form.exponent ?? number.end)]
        return mantissa.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) ? nil : value
    }

    /// Where a number's fraction and exponent begin, nil when it is not `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private func form(of number: JSONNumber) -> NumberForm? {
        var index = number.start
        func digits() -> Int {
            let start = index
            while index < number.end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < number.end else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        var form = NumberForm()
        if index < number.end, bytes[index] == UInt8(ascii: ".") {
            form.fraction = index
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < number.end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            form.exponent = index
            index += 1
            if index < number.end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return index == number.end ? form : nil
    }

    /// The whole part of a number's magnitude, read from its decimal digits (the fraction cut off), nil beyond `UInt64`.
    private func wholePart(of number: JSONNumber, _ form: NumberForm) -> UInt64? {
        let digitsStart = bytes[number.start] == UInt8(ascii: "-") ? number.start + 1 : number.start
        let integerEnd = form.fraction ?? form.exponent ?? number.end
        let fraction = form.fraction.map { ($0 + 1)..<(form.exponent ?? number.end) } ?? integerEnd..<integerEnd
        var exponent = 0
        if let start = form.exponent {
            for byte in bytes[(start + 1)..<number.end] where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 10_000)
            }
            if bytes[start + 1] == UInt8(ascii: "-") { exponent = -exponent }
        }
        var whole = integerEnd - digitsStart + exponent
        var magnitude: UInt64 = 0
        for byte in Array(bytes[digitsStart..<integerEnd]) + Array(bytes[fraction]) {
            guard whole > 0 else { break }
            whole -= 1
            guard let next = Self.appending(byte - UInt8(ascii: "0"), to: magnitude) else { return nil }
            magnitude = next
        }
        while whole > 0, magnitude > 0 {
            whole -= 1
            guard let next = Self.appending(0, to: magnitude) else { return nil }
            magnitude = next
        }
        return magnitude
    }

    /// `magnitude` with the decimal digit `digit` after it, nil beyond `UInt64`.
    private static func appending(_ digit: UInt8, to magnitude: UInt64) -> UInt64? {
        let (times, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, carried) = times.addingReportingOverflow(UInt64(digit))
        return overflowed || carried ? nil : sum
    }

    private func text(of number: JSONNumber) -> String {
        String(decoding: bytes[number.start..<number.end], as: UTF8.self)
    }
}

/// Where a number's fraction (its `.`) and exponent (its `e`) are, when it has them.
private struct NumberForm {
    var fraction: Int?
    var exponent: Int?
    var isPlain: Bool { fraction == nil && exponent == nil }
}
