#!/usr/bin/env python3
"""Makes the resize references of ResamplingReferenceTests with Pillow (run from the repository root).

Sources (lossless PNG, so WebImage and Pillow start from the same pixels):
  photo.png  - corpus gen_q95_444.jpg as decoded by Pillow, saved as PNG (640x480 RGB)
  alpha.png  - corpus gen_alpha.png (640x480 RGBA)
References: <source>_<W>x<H>_<filter>.png, Image.resize((W, H), filter) with Pillow's LANCZOS, BICUBIC, BILINEAR.
Made with Pillow 13.0.0."""
from PIL import Image
import os

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "corpus", "images")
Image.open(os.path.join(corpus, "gen_q95_444.jpg")).convert("RGB").save(os.path.join(here, "photo.png"))
Image.open(os.path.join(corpus, "gen_alpha.png")).convert("RGBA").save(os.path.join(here, "alpha.png"))
filters = {"lanczos3": Image.LANCZOS, "catmullrom": Image.BICUBIC, "bilinear": Image.BILINEAR}
for source in ["photo", "alpha"]:
    image = Image.open(os.path.join(here, source + ".png"))
    for size in [(160, 120), (320, 240), (97, 61), (900, 700)]:
        for name, method in filters.items():
            if name != "lanczos3" and size != (160, 120):
                continue
            image.resize(size, method).save(os.path.join(here, "%s_%dx%d_%s.png" % (source, size[0], size[1], name)))
