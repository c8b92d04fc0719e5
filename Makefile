# presentd — `make run` sets up a fresh Debian 12 machine and starts the daemon;
# `make test` sets it up and runs every test. See README.md.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD_FLAGS  ?=
# Debian packages the build and the tests need (checked, and installed when missing).
DEB_PACKAGES := libuv1-dev libjson-c-dev libsystemd-dev pkg-config socat python3 systemd

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test test-core bench fuzz soak clean

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
	@command -v $(SWIFT) >/dev/null || { echo "error: no Swift toolchain on PATH (Swift 6 is needed)" >&2; exit 1; }

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

## run: build in release mode and start the daemon in the foreground
run: release
	$$($(SWIFT) build -c release --show-bin-path)/presentd $(RUN_ARGS)

## test: every test (unit, protocol, integration against the real daemon)
test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

clean:
	rm -rf .build
