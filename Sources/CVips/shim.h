#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H
#include <vips/vips.h>
/* vips.h leaves out vector.h, the switch for libvips' vector (ORC) paths. */
#include <vips/vector.h>

/*
 * libvips' entry points are macros (VIPS_INIT) or variadic functions taking NULL-terminated
 * lists of optional arguments, neither of which Swift can call. These wrappers fix the
 * optional arguments the ImageRobot module uses. Each returns 0 on success and -1 on error
 * (with the message in vips_error_buffer), like the functions they wrap.
 */

/* VIPS_INIT checks the library's ABI version, then calls vips_init. */
static inline int cvips_init(const char *argv0)
{
    return VIPS_INIT(argv0);
}

/* Opens an image lazily (header only until pixels are needed). Returns NULL on error. */
static inline VipsImage *cvips_load(const char *path, VipsAccess access, VipsFailOn fail_on)
{
    return vips_image_new_from_file(path, "access", access, "fail_on", fail_on, NULL);
}

/* Loads and scales a file to exactly width x height (shrink-on-load, upright by EXIF orientation). */
static inline int cvips_thumbnail(const char *path, VipsImage **out, int width, int height, VipsFailOn fail_on)
{
    return vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_FORCE, "fail_on", fail_on, NULL);
}

/* Scales an image to exactly width x height. */
static inline int cvips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height)
{
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

static inline int cvips_autorot(VipsImage *in, VipsImage **out)
{
    return vips_autorot(in, out, NULL);
}

static inline int cvips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height)
{
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/* Places the image at (x, y) on a width x height canvas filled with `background` (n values, one per band). */
static inline int cvips_embed(VipsImage *in, VipsImage **out, int x, int y, int width, int height,
                              const double *background, int n)
{
    VipsArrayDouble *array = vips_array_double_new(background, n);
    int result = vips_embed(in, out, x, y, width, height,
                            "extend", VIPS_EXTEND_BACKGROUND, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

/* Removes the alpha band by blending onto `background` (n values, one per colour band). */
static inline int cvips_flatten(VipsImage *in, VipsImage **out, const double *background, int n)
{
    VipsArrayDouble *array = vips_array_double_new(background, n);
    int result = vips_flatten(in, out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

static inline int cvips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space)
{
    return vips_colourspace(in, out, space, NULL);
}

static inline int cvips_bandjoin_const1(VipsImage *in, VipsImage **out, double value)
{
    return vips_bandjoin_const1(in, out, value, NULL);
}

static inline int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format)
{
    return vips_cast(in, out, format, NULL);
}

static inline int cvips_copy_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation interpretation)
{
    return vips_copy(in, out, "interpretation", interpretation, NULL);
}

/* out = in * a + b, band by band (n values each). */
static inline int cvips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n)
{
    return vips_linear(in, out, a, b, n, NULL);
}

/* A two-band image whose pixels hold their own x and y. */
static inline int cvips_xyz(VipsImage **out, int width, int height)
{
    return vips_xyz(out, width, height, NULL);
}

static inline int cvips_avg(VipsImage *in, double *out)
{
    return vips_avg(in, out, NULL);
}

/* The band values at (x, y); free *vector with g_free. */
static inline int cvips_getpoint(VipsImage *in, double **vector, int *n, int x, int y)
{
    return vips_getpoint(in, vector, n, x, y, NULL);
}

static inline int cvips_jpegsave(VipsImage *in, const char *path, int quality)
{
    return vips_jpegsave(in, path, "Q", quality, NULL);
}

static inline int cvips_pngsave(VipsImage *in, const char *path, int compression)
{
    return vips_pngsave(in, path, "compression", compression, NULL);
}

static inline int cvips_webpsave(VipsImage *in, const char *path, int quality)
{
    return vips_webpsave(in, path, "Q", quality, NULL);
}

static inline int cvips_gifsave(VipsImage *in, const char *path)
{
    return vips_gifsave(in, path, NULL);
}

static inline int cvips_tiffsave(VipsImage *in, const char *path)
{
    return vips_tiffsave(in, path, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
}

#endif
