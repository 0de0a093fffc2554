# The two commands of the README: `make demo` (the main job) and `make test` (the tests).
# Both install the system libraries they need with apt when they are missing (Debian; run as root or with sudo).

APT_PACKAGES := pkg-config libturbojpeg0-dev libspng-dev libgif-dev libwebp-dev zlib1g-dev libavif-dev libheif-dev \
	liblcms2-dev libimagequant-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_BUILD_FLAGS ?=

.PHONY: deps build demo test test-tsan lint conformance bench clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# Starts a local test server, loads the sample images through the pipeline three times (network, memory, disk),
# prints the table and writes out/demo/index.html.
demo: deps
	swift build $(SWIFT_BUILD_FLAGS) --product webimage
	$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/webimage demo --output-dir out/demo

# Tests run one at a time: several assert on timing (a 1 s timeout fires within 2 s) and the CLI tests start child
# processes that use both cores, so running them side by side on the 2-core machine made the timing tests flaky.
test: deps
	swift test $(SWIFT_BUILD_FLAGS) --no-parallel

# The tests under ThreadSanitizer, in their own build folder; any report fails the run. The CLI suites are skipped:
# they time child processes, which TSan slows past their limits, and the code they drive is tested in-process.
test-tsan: deps
	TSAN_OPTIONS=halt_on_error=1 swift test --sanitize=thread --scratch-path .build-tsan --no-parallel --skip CLI

# Formatting, as `.swift-format` says (swift-format ships with the toolchain).
lint:
	swift format lint --strict -r Sources Tests/WebImageTests Tests/webimage-cache-writer Benchmarks/Sources

# Runs the corpus's own checker over `webimage fetch` (needs numpy and Pillow).
conformance: deps
	swift build $(SWIFT_BUILD_FLAGS) --product webimage
	python3 -c 'import numpy, PIL' 2>/dev/null || pip install -q numpy pillow
	python3 Tests/Fixtures/corpus/check.py Tests/Fixtures/corpus \
		"$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/webimage fetch {in} -o {out} --no-cache"

bench: deps
	Benchmarks/run.sh

clean:
	rm -rf .build .build-tsan out
