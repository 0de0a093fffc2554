#!/bin/sh
# The SVG fixtures' references: each `images/svg_*.svg` rendered by rsvg-convert (librsvg2-bin) at its own size.
# svg_no_size.svg has no size and no viewBox: rsvg-convert sizes its output to the bounds of the drawing (30x20) but
# draws from the document's origin, cutting the drawing off; its reference is rendered from a copy that names those
# bounds as its viewBox, which is what the decoder shows.
set -eu
cd "$(dirname "$0")/.."
for svg in images/svg_*.svg; do
    name=$(basename "$svg")
    if [ "$name" = svg_no_size.svg ]; then
        sed 's|<svg xmlns="http://www.w3.org/2000/svg">|<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20" viewBox="10 6 30 20">|' \
            "$svg" | rsvg-convert --format=png -o "expected/$name.png"
    else
        rsvg-convert --format=png "$svg" -o "expected/$name.png"
    fi
done
