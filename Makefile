# PostFeed — two commands on a fresh Debian machine:
#   make run    build, then show posts from the built-in fixture backend
#   make test   build and run every test suite
# (`make test-ci`, what CI runs, adds the DocC build (`make docs`) and 30 s of fuzzing per
# parser after the tests.)
# Both install what the build needs (libcurl4-openssl-dev, the image libraries, hiredis,
# libxml2-dev;
# nginx, tmux and redis-server for the tests)
# when it is missing, with sudo when not root.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
POSTFEED := .build/debug/postfeed

.PHONY: run test build release deps test-deps lint-tests bench bench-browse fixtures clean

# libcurl for HTTP; the image decoders and chafa for previews (PostFeedImaging, under the
# PostFeedPreview product); hiredis
# for the shared cache tier (PostFeedRedis's RedisCache); libxml2 for the feed and HTML
# parsers (PostFeedFormats).
# libchafa-dev's chafa.pc requires glib-2.0 but Debian's package does not depend on it.
DEPS_PACKAGES := libcurl4-openssl-dev libssl-dev libturbojpeg0-dev libpng-dev libwebp-dev libgif-dev libchafa-dev libglib2.0-dev libhiredis-dev libxml2-dev

deps:
	@missing=""; for p in $(DEPS_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test-deps: deps
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
		echo "make: installing nginx-light (the HTTP tests start it on a loopback port)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; \
	fi
	@if ! command -v redis-server >/dev/null 2>&1; then \
		echo "make: installing redis-server (the shared-cache tests start it on a loopback port)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
	fi
	@if ! command -v tmux >/dev/null 2>&1; then \
		echo "make: installing tmux (the browse tests drive a real terminal in it)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; \
	fi

build: deps
	$(SWIFT) build --product postfeed

# The binary to install: optimized, with the Swift runtime and Foundation linked in
# statically, so it starts in about 11 ms instead of 18 (no dynamic symbol binding of
# libswiftCore, Foundation and ICU) and runs where no Swift toolchain is installed.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product postfeed
	@echo "make: built $$($(SWIFT) build -c release --show-bin-path)/postfeed"

run: build
	$(POSTFEED) list --mode infinite --pages 2
	$(POSTFEED) page 3

# Suites run side by side, at most TEST_WIDTH tests at a time (Swift Testing's
# --experimental-maximum-parallelization-width): unbounded, ~1,000 tests that start
# servers, processes and tmux panes at once starve a 2-core machine's two
# cooperative threads. Tests that cannot share the machine are `.serialized` and say why.
TEST_WIDTH ?= 8
test: test-deps lint-tests
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --experimental-maximum-parallelization-width $(TEST_WIDTH)

# No closure literal inside #expect/#require: Swift 6.3.1 gives it the discriminator of
# the next closure literal and runs one body for both (README "Tests").
lint-tests:
	@if ! command -v python3 >/dev/null 2>&1; then \
		echo "make: installing python3 (scripts/check-test-macros.py)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3; \
	fi
	python3 scripts/check-test-macros.py

# Closures Swift 6.3.1 merged (a closure literal inside #expect/#require in a closure-bodied
# test runs another closure's body; README, Tests): lists them, exits 1 when there are any.
.PHONY: check-closures
check-closures: test-deps
	$(SWIFT) build --build-tests
	bash scripts/check-closure-collisions.sh

# Everything in the Benchmarks/ package: the engine against curl, URLSession,
# AsyncHTTPClient and bare libcurl (postfeed-bench-fetch), the cache and list benchmarks
# (postfeed-bench cache / list, timing the release `postfeed`), then the micro benchmarks
# (swift package benchmark: memory and disk hit, JSON parse, page decode), the load
# telemetry's cost per memory hit (scripts/bench-telemetry.sh), the image
# preview against the `chafa` command (scripts/bench-images.sh, which needs chafa,
# hyperfine and GNU time: bench-deps), the feed parser against xmllint and Python's
# xml.etree and HTML to text against html2text and w3m (scripts/bench-formats.sh), then the
# browse benchmarks (bench-browse).
bench: deps test-deps bench-deps
	sh scripts/bench.sh
	bash scripts/bench-cache-list.sh
	sh scripts/bench-micro.sh
	sh scripts/bench-telemetry.sh
	bash scripts/bench-images.sh
	bash scripts/bench-formats.sh
	$(MAKE) bench-browse
	$(MAKE) bench-shared

# What the benchmarks compare against or time with: `chafa` (the image preview's peer),
# hyperfine (whole-process timing), GNU time (peak memory); xmllint (libxml2-utils),
# html2text and w3m (the feed parser's and the HTML renderer's peers, bench-formats).
BENCH_PACKAGES := chafa hyperfine time libxml2-utils html2text w3m
.PHONY: bench-deps bench-browse bench-shared
bench-deps:
	@missing=""; for p in $(BENCH_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing (for the benchmarks)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# issue 16's browse budgets against `postfeed serve`, through tmux, with the release build:
# the latency budget (cold first screen of browse and page 1 at --latency-ms 100 and 0,
# requests for the next screen, page N+1 and a warm restart) and bounded memory (browse
# over 100,000 generated posts). BENCH_BROWSE_ARGS="--only memory --posts 20000" for less.
bench-browse: deps test-deps
	SWIFT=$(SWIFT) python3 scripts/bench-browse.py $(BENCH_BROWSE_ARGS)

# issue 18's shared cache tier (scripts/bench-shared.sh, with its own redis-server and
# `postfeed serve`): 8 `postfeed list` processes on 8 cache roots reading the same 1,000
# images, without and with --shared-cache, origin requests counted at the server; then a
# Redis hit against a disk hit, p50 (`postfeed-bench shared-hit`).
# BENCH_SHARED_CONFIG=debug uses the debug build; BENCH_SHARED_LATENCY_MS=20 slows the origin.
bench-shared: deps test-deps
	SWIFT=$(SWIFT) bash scripts/bench-shared.sh

# libFuzzer targets for every parser of outside data (Fuzz/), built with
# -sanitize=fuzzer,address, each run for FUZZ_SECONDS from its seed corpus in
# Fuzz/Corpus/; fails on a crash, leaving the input in Fuzz/Artifacts/.
# `make fuzz FUZZ_SECONDS=5` for a quick run.
FUZZ_SECONDS ?= 30
.PHONY: fuzz
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) bash Fuzz/run.sh

# The DocC documentation of the PostFeed library: the catalog's articles
# (Sources/PostFeed/PostFeed.docc) and every doc comment, with swift-docc-plugin. A link
# that does not resolve, an undocumented parameter or an ambiguous symbol fails it
# (--warnings-as-errors). The archive: .build/plugins/Swift-DocC/outputs/PostFeed.doccarchive.
.PHONY: docs
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target PostFeed --warnings-as-errors

# What CI runs (.ci/run, on a clean clone): every test suite, the documentation (docs,
# warnings as errors), then every fuzz target for at least 30 s (FUZZ_SECONDS may raise
# that, never lower it). A crash fails the run; the executions of each target are
# printed. `make test` stays without fuzzing, which adds 7 minutes or more (a sanitizer
# build of its own, then 10 × 30 s).
.PHONY: test-ci
test-ci: lint-tests test check-closures docs
	@seconds=$(FUZZ_SECONDS); [ "$$seconds" -ge 30 ] 2>/dev/null || seconds=30; \
		echo "make: fuzzing every parser for $$seconds s each"; \
		FUZZ_SECONDS=$$seconds SWIFT=$(SWIFT) bash Fuzz/run.sh

fixtures:
	python3 scripts/make_fixtures.py

clean:
	rm -rf .build
