import Foundation

/// A time axis of a chart: where its ticks go and how they read, in seconds (since the run's start, or of a night's length).
struct ChartAxis {
    /// The tick positions, in seconds, from 0 up to the span.
    var ticks: [Double]
    /// The unit the tick labels are in: `s`, `min` or `h`.
    var unit: String
    private var divisor: Double

    /// Ticks 1, 2 or 5 times a power of ten of the unit apart, about six over `span` seconds.
    init(span: Double) {
        let (unit, divisor): (String, Double) = span < 180 ? ("s", 1) : span < 3 * 3_600 ? ("min", 60) : ("h", 3_600)
        (self.unit, self.divisor) = (unit, divisor)
        let scaled = max(span / divisor, 1e-3)
        let rough = scaled / 6
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        ticks = stride(from: 0, through: scaled + step * 1e-9, by: step).map { $0 * divisor }
    }

    /// `seconds` in the axis's unit.
    func value(_ seconds: Double) -> Double { seconds / divisor }

    /// A tick's label: `30 s`, `2.5 min`.
    func label(_ seconds: Double) -> String {
        let value = value(seconds)
        let text = value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
        return "\(text) \(unit)"
    }
}
