#include <lcms2.h>

// lcms2's pixel formats are function-like macro expressions, which Swift cannot import; these constants carry them.
static const cmsUInt32Number WI_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number WI_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number WI_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number WI_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number WI_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number WI_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number WI_TYPE_GRAY_16 = TYPE_GRAY_16;
