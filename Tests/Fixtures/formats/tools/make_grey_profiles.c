// Writes two grey ICC profiles with lcms2: a linear one (gamma 1.0) and an L* one (CIE lightness as the curve), both
// with a D50 white. A JPEG tagged with either decodes visibly wrong when the profile is ignored.
// Build: cc make_grey_profiles.c -llcms2 -lm -o make_grey_profiles && ./make_grey_profiles linear.icc lstar.icc
#include <lcms2.h>
#include <math.h>
#include <stdio.h>

static int save(cmsToneCurve *curve, const char *name, const char *path) {
    cmsHPROFILE profile = cmsCreateGrayProfile(cmsD50_xyY(), curve);
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(description, "en", "US", name);
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
    int ok = cmsSaveProfileToFile(profile, path);
    cmsMLUfree(description);
    cmsCloseProfile(profile);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s LINEAR.icc LSTAR.icc\n", argv[0]); return 2; }
    cmsToneCurve *linear = cmsBuildGamma(NULL, 1.0);
    // L* = 116 f(Y) - 16: the curve maps the encoded value (L*/100) to Y.
    float table[4096];
    for (int i = 0; i < 4096; i++) {
        double l = 100.0 * i / 4095.0;
        double y = l > 8.0 ? pow((l + 16.0) / 116.0, 3.0) : l / 903.3;
        table[i] = (float)y;
    }
    cmsToneCurve *lstar = cmsBuildTabulatedToneCurveFloat(NULL, 4096, table);
    int ok = save(linear, "Linear grey (swift-web-image test profile)", argv[1])
        && save(lstar, "L* grey (swift-web-image test profile)", argv[2]);
    cmsFreeToneCurve(linear);
    cmsFreeToneCurve(lstar);
    return ok ? 0 : 1;
}
