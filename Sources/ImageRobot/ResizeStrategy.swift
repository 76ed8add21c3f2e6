/// How `/image/resize` fits an image into the requested width and height.
///
/// Raw values are the API's `resize_strategy` names. For a 400×300 image and a 100×100 target
/// (Transloadit's resize-strategies page): `fit` 100×75, `minFit` 133×100, `fillcrop`, `pad` and
/// `stretch` 100×100, `crop` a 100×100 cut of the original. ``ResizeGeometry`` holds the math.
package enum ResizeStrategy: String, Sendable, Hashable, CaseIterable {
    /// Scale to fit inside the box, keeping the aspect ratio (the default).
    case fit
    /// Scale to cover the box, keeping the aspect ratio, then crop the excess by gravity.
    case fillcrop
    /// Scale to cover the box, keeping the aspect ratio; no side is smaller than the box.
    case minFit = "min_fit"
    /// Scale to fit inside the box, then fill the rest of the box with the background colour.
    case pad
    /// Scale to exactly the box, ignoring the aspect ratio.
    case stretch
    /// Cut a region out of the original: the `crop` rectangle, or else a box of the target size placed by gravity.
    case crop

    /// The strategy called `name` in the API.
    package init(parsing name: String) throws(ImagingError) {
        guard let strategy = ResizeStrategy(rawValue: name) else {
            throw .unknownValue(option: "resize_strategy", value: name, expected: Self.allCases.map(\.rawValue))
        }
        self = strategy
    }
}
