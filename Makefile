# Kept: set-up, build, test, demo and benchmarks. `make test` and `make demo` install the apt
# packages they need on a fresh Debian machine (as root, or through sudo).

SWIFT ?= swift
APT_PACKAGES := pkg-config libpcre2-dev libreadline-dev libsqlite3-dev sqlite3 taskwarrior libfaketime
KEPT_DEBUG := .build/debug/kept
KEPT_RELEASE := .build/release/kept

.PHONY: all deps build release test demo bench fuzz sanitize clean

all: build

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null || exit 1; \
	fi
	@python3 -c 'import dateutil' 2>/dev/null || { \
	  echo "installing: python-dateutil"; \
	  python3 -m pip install --quiet python-dateutil || exit 1; \
	}
	@python3 -c 'import icalendar, recurring_ical_events' 2>/dev/null || { \
	  echo "installing: icalendar recurring-ical-events"; \
	  python3 -m pip install --quiet icalendar recurring-ical-events || exit 1; \
	}

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# Unit tests (XCTest), repeat dates against python-dateutil, the peers' counts, every store of
# examples/ and a 100,000-task store through load and save, exports read by icalendar,
# recurring-ical-events and Taskwarrior and imported back, then every transcript in examples/
# through the real binary.
test: build
	$(SWIFT) test
	python3 Tests/differential/dateutil_diff.py
	python3 Tests/differential/peer_counts.py
	python3 Tests/differential/store_roundtrip.py
	python3 Tests/differential/interop_peers.py
	$(KEPT_DEBUG) test examples/

demo: build
	$(KEPT_DEBUG) run --echo --store examples/home.store.json examples/demo.kept

bench: release
	bash bench/store_bench.sh
	bash bench/capture_bench.sh
	bash bench/rrule_bench.sh
	bash bench/filter_bench.sh
	bash bench/tw_compare.sh
	bash bench/plan_compare.sh
	bash bench/repl_startup.sh
	bash bench/sqlite_bench.sh
	bash bench/import_bench.sh

# libFuzzer targets (Tests/Fuzz/README.md), each run FUZZ_SECONDS (default 120) from the seed
# corpus in Tests/Fuzz/corpus/; not part of `make test`.
FUZZ_SECONDS ?= 120
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash Tests/Fuzz/fuzz.sh

# The unit tests under AddressSanitizer, then ThreadSanitizer, each in its own build folder (so
# neither disturbs the debug build) and with the CLI tests running that build's kept; then every
# example through `kept test -j 2` built with each (the parallel store loader, the two-thread
# filter and the test runner's workers). A report fails the run. Not part of `make test`.
SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1
sanitize: deps
	$(SANITIZE_ENV) KEPT_BIN=$(CURDIR)/.build/asan/debug/kept $(SWIFT) test --sanitize=address --scratch-path .build/asan
	$(SANITIZE_ENV) .build/asan/debug/kept test -j 2 examples/
	$(SANITIZE_ENV) KEPT_BIN=$(CURDIR)/.build/tsan/debug/kept $(SWIFT) test --sanitize=thread --scratch-path .build/tsan
	$(SANITIZE_ENV) .build/tsan/debug/kept test -j 2 examples/

clean:
	rm -rf .build
