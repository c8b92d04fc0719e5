# presentd — `make run` sets up a fresh Debian 12 machine and starts the daemon;
# `make test` sets it up and runs every test. See README.md.

# The toolchain: swift on PATH, else the usual install location.
SWIFT        ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD_FLAGS  ?=
# Debian packages the build and the tests need (checked, and installed when missing).
DEB_PACKAGES := libuv1-dev libjson-c-dev libsystemd-dev pkg-config socat python3 systemd

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test test-swift clean fuzz fuzz-quick soak soak-quick

all: build

## deps: install the Debian packages that are missing (apt-get, with sudo when not root)
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@test -x "$(SWIFT)" || command -v "$(SWIFT)" >/dev/null || { echo "error: no Swift 6 toolchain (swift on PATH or /opt/swift)" >&2; exit 1; }

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

## run: build in release mode and start the daemon in the foreground
run: release
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	echo "presentd: starting; try, in another terminal:"; \
	echo "  $$bin/presentctl hello"; \
	echo "  $$bin/presentctl present --style alert --transition zoom --wait"; \
	exec $$bin/presentd $(RUN_ARGS)

## test: every test suite. Each suite is a target; other parts of the tree add theirs to
## TEST_SUITES (clients, systemd units, …).
TEST_SUITES := test-swift
TEST_SUITES += fuzz-quick
TEST_SUITES += soak-quick

test: deps $(TEST_SUITES)
	@echo "make test: all suites passed ($(TEST_SUITES))"

## test-swift: unit, protocol and transport tests, and integration tests against the real daemon
test-swift: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

## fuzz: libFuzzer (with AddressSanitizer) over line → JSON-RPC → typed request → stack,
## for FUZZ_SECONDS (default 300); fuzz-quick is the 30-second run `make test` includes.
FUZZ_SECONDS ?= 300
fuzz: deps
	SWIFT=$(SWIFT) Tests/Fuzz/run-fuzzer.sh $(FUZZ_SECONDS)

fuzz-quick: deps
	SWIFT=$(SWIFT) Tests/Fuzz/run-fuzzer.sh 30

## soak: 50 clients doing random things to presentd built with AddressSanitizer, for
## SOAK_SECONDS (default 600): every request answered, invariants checked continuously,
## RSS flat after warm-up, no leak at exit. soak-quick is the 60-second run `make test` includes.
SOAK_SECONDS ?= 600
SOAK = $(SWIFT) build --product presentd --sanitize=address --scratch-path .build/asan $(BUILD_FLAGS) && \
	ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 python3 Tests/Hardening/soak.py \
	  --daemon "$$($(SWIFT) build --show-bin-path --sanitize=address --scratch-path .build/asan)/presentd" --seconds

soak: deps
	$(SOAK) $(SOAK_SECONDS)

soak-quick: deps
	$(SOAK) 60

clean:
	rm -rf .build
