/// Where a crop is anchored (or, for `pad`, where the image sits on its canvas).
///
/// Raw values are the API's `gravity` names; the default is `center`.
package enum ResizeGravity: String, Sendable, Hashable, CaseIterable {
    case center
    case top
    case bottom
    case left
    case right
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"

    /// The gravity called `name` in the API.
    package init(parsing name: String) throws(ImagingError) {
        guard let gravity = ResizeGravity(rawValue: name) else {
            throw .unknownValue(option: "gravity", value: name, expected: Self.allCases.map(\.rawValue))
        }
        self = gravity
    }

    /// The offset of a smaller rectangle inside a larger one whose size exceeds it by `excess`.
    ///
    /// Centring rounds down, so an odd excess leaves the extra pixel on the right or bottom.
    func offset(excessWidth: Int, excessHeight: Int) -> (x: Int, y: Int) {
        let x: Int
        switch self {
        case .left, .topLeft, .bottomLeft: x = 0
        case .right, .topRight, .bottomRight: x = excessWidth
        case .center, .top, .bottom: x = excessWidth / 2
        }
        let y: Int
        switch self {
        case .top, .topLeft, .topRight: y = 0
        case .bottom, .bottomLeft, .bottomRight: y = excessHeight
        case .center, .left, .right: y = excessHeight / 2
        }
        return (x, y)
    }
}
