#!/usr/bin/env python3
"""Pillow's decode time per file, the anchor of Benchmarks/codecs.sh.

usage: pillow_decode.py [--target N] FILE...   prints one JSON line per file: median and best ms per decode.
Every frame of an animation is loaded (as WebImage decodes them all). With --target, JPEGs use Image.draft (libjpeg DCT scaling), as Pillow's own thumbnail() does."""
import json, sys, time
from PIL import Image, ImageSequence

def measure(fn, seconds=2.0, minimum=5):
    fn()
    samples, deadline = [], time.perf_counter() + seconds
    while len(samples) < minimum or time.perf_counter() < deadline:
        start = time.perf_counter(); fn(); samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return samples[len(samples) // 2], samples[0]

args = sys.argv[1:]
target = None
if "--target" in args:
    i = args.index("--target"); target = int(args[i + 1]); del args[i:i + 2]
for path in args:
    def decode():
        im = Image.open(path)
        if target: im.draft("RGB", (target, target))
        for frame in ImageSequence.Iterator(im):
            frame.load()
        return im
    size = decode().size
    median, best = measure(decode)
    print(json.dumps({"file": path.rsplit("/", 1)[-1], "size": "%dx%d" % size,
                      "median_ms": round(median, 3), "best_ms": round(best, 3)}))
