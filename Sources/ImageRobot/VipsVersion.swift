import CVips

/// The libvips this binary runs with, `libvips X.Y.Z`, for `--version`; no image is touched.
package enum VipsVersion {
    package static var text: String { "libvips " + String(cString: vips_version_string()) }
}
