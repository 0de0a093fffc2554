#include <tiffio.h>

// TIFFGetField and TIFFSetField are variadic, which Swift does not import: one typed wrapper per use.

static inline int wi_tiff_get_uint16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetField(tif, tag, value);
}

static inline int wi_tiff_get_defaulted_uint16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

static inline int wi_tiff_get_uint32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tif, tag, value);
}

static inline int wi_tiff_get_extra_samples(TIFF *tif, uint16_t *count, const uint16_t **types) {
    return TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, count, types);
}

static inline int wi_tiff_get_icc_profile(TIFF *tif, uint32_t *count, const void **data) {
    return TIFFGetField(tif, TIFFTAG_ICCPROFILE, count, data);
}

static inline int wi_tiff_set_uint16(TIFF *tif, uint32_t tag, uint16_t value) {
    return TIFFSetField(tif, tag, (int)value);
}

static inline int wi_tiff_set_uint32(TIFF *tif, uint32_t tag, uint32_t value) {
    return TIFFSetField(tif, tag, value);
}

static inline int wi_tiff_set_extra_samples(TIFF *tif, uint16_t count, const uint16_t *types) {
    return TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, (int)count, types);
}

static inline int wi_tiff_set_icc_profile(TIFF *tif, uint32_t count, const void *data) {
    return TIFFSetField(tif, TIFFTAG_ICCPROFILE, count, data);
}

static inline int wi_tiff_get_counted(TIFF *tif, uint32_t tag, uint32_t *count, const void **data) {
    return TIFFGetField(tif, tag, count, data);
}

static inline int wi_tiff_set_counted(TIFF *tif, uint32_t tag, uint32_t count, const void *data) {
    return TIFFSetField(tif, tag, count, data);
}
