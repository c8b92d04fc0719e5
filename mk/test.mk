# mk/test.mk — the test suites. Each suite is a target and adds itself to TEST_SUITES;
# `make test` (in the top Makefile) runs them all, `make test-fast` the quick tier.

.PHONY: test-swift test-python test-c test-web test-terminal test-docs test-wayland test-notify \
	test-systemd test-deploy fuzz fuzz-quick soak soak-quick test-fast test-fast-swift test-fast-c test-checks

# The Python-driven suites run Debian's python3 and pytest against the daemon built here,
# found through $PRESENTD and $PRESENTCTL; Clients/pytest.ini puts the package's source and
# the test kit on the path.
CLIENTS_PYTEST = bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) -m pytest -c Clients/pytest.ini

# A suite that cannot run on this machine writes its name to .build/skipped/<suite> and
# says SKIPPED; `make test` reports it as skipped, never as passed.

TEST_SUITES += test-swift
## test-swift: unit, protocol and transport tests, and integration tests against the real daemon
test-swift: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

TEST_SUITES += test-python
## test-python: the Python package (sync and asyncio clients, the recorder, pip install) against the real daemon
test-python: clients-bin
	$(CLIENTS_PYTEST) Clients/python/tests

TEST_SUITES += test-c
## test-c: the C client library (Clients/c) and its example renderer, against the real daemon
test-c: clients-bin
	$(MAKE) -C Clients/c test PRESENTD=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/presentd

TEST_SUITES += test-web
## test-web: the browser viewer's bridge (python -m presentd.web) and the page in headless Chromium
test-web: clients-bin
	$(CLIENTS_PYTEST) Clients/web/tests

TEST_SUITES += test-terminal
## test-terminal: presentctl watch --draw in tmux, read back with capture-pane
test-terminal: clients-bin
	$(CLIENTS_PYTEST) Tests/terminal

TEST_SUITES += test-docs
## test-docs: the documents' examples against the real daemon (PROTOCOL.md's transcripts, the README's)
# docs/PROTOCOL.md's transcripts (Tests/docs/examples.py), and every README example and its presentd
# synopsis (Tests/docs/readme_examples.py).
test-docs: clients-bin
	bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	PRESENTD=$$bin/presentd $(PYTHON) Tests/docs/examples.py --check && \
	PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) Tests/docs/readme_examples.py --check

TEST_SUITES += test-wayland
## test-wayland: the renderer on a real headless sway, read back with grim and tesseract
# Where sway cannot run it says why in one line and is reported SKIPPED (never as passed).
test-wayland: clients-bin wayland notify
	@mkdir -p .build/skipped; rm -f .build/skipped/test-wayland
	$(CLIENTS_PYTEST) Clients/wayland/tests

TEST_SUITES += test-notify
## test-notify: the bridge on a private session bus against the real presentd (manual clock)
# Driven by notify-send, gdbus, dbus-send and GLib (docs/NOTIFICATIONS.md).
test-notify: clients-bin
	$(MAKE) -C Clients/notify
	$(CLIENTS_PYTEST) Clients/notify/tests

TEST_SUITES += fuzz-quick
## fuzz: libFuzzer (with AddressSanitizer) over line → JSON-RPC → request → stack, FUZZ_SECONDS (300)
FUZZ_SECONDS ?= 300
fuzz: deps
	SWIFT=$(SWIFT) Tests/Fuzz/run-fuzzer.sh $(FUZZ_SECONDS)

## fuzz-quick: the 30-second fuzz run `make test` includes
fuzz-quick: deps
	SWIFT=$(SWIFT) Tests/Fuzz/run-fuzzer.sh 30

TEST_SUITES += soak-quick
## soak: 50 clients doing random things to presentd for SOAK_SECONDS (default 600)
# Every request answered, invariants checked continuously. The first half runs the release build,
# whose memory must stay flat after warm-up; the second half a build with AddressSanitizer,
# which must report no memory error and no leak at exit (its allocator's caches make RSS a
# poor measure, so it only gets a loose bound).
SOAK_SECONDS ?= 600
SOAK = $(SWIFT) build -c release --product presentd $(RELEASE_FLAGS) $(BUILD_FLAGS) && \
	python3 Tests/Hardening/soak.py --daemon "$$($(SWIFT) build -c release --show-bin-path)/presentd" --seconds $$(( $(1) / 2 )) && \
	$(SWIFT) build --product presentd --sanitize=address --scratch-path .build/asan $(BUILD_FLAGS) && \
	ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 python3 Tests/Hardening/soak.py --rss-growth 25 \
	  --daemon "$$($(SWIFT) build --show-bin-path --sanitize=address --scratch-path .build/asan)/presentd" --seconds $$(( $(1) / 2 ))

soak: deps $(STATIC_CXX)/libstdc++.a
	$(call SOAK,$(SOAK_SECONDS))

## soak-quick: the 60-second soak `make test` includes
soak-quick: deps $(STATIC_CXX)/libstdc++.a
	$(call SOAK,60)

TEST_SUITES += test-systemd
## test-systemd: the units, a scratch install and the man pages, as an operator gets them
# The units pass `systemd-analyze verify` silently and `security` rates the
# service SAFE; a scratch install is complete; the man pages format without warnings.
# (The daemon's systemd behaviour is tested by test-swift: SystemdTests.)
test-systemd: deps
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	$(SWIFT) build --product presentctl $(BUILD_FLAGS)
	Tests/systemd/check-units.sh "$(MAKE)"

TEST_SUITES += test-deploy
## test-deploy: the .deb under a real systemd as PID 1, in namespaces (SKIPPED where it cannot)
# Tests/deploy/test-deploy.sh: a Debian 12 root made once by debootstrap and cached in
# /var/tmp/presentd-sysbox, booted in namespaces of its own; install, socket activation,
# permissions, sandbox, kill -9, watchdog, reload, user units, upgrade, remove, purge. Needs
# root and namespaces: where the machine cannot, it says why in one line and is reported as
# SKIPPED (never as passed).
test-deploy:
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory deps-deploy; fi
	@mkdir -p .build/skipped; rm -f .build/skipped/test-deploy; rc=0; \
	MAKE="$(MAKE)" Tests/deploy/test-deploy.sh || rc=$$?; \
	if [ $$rc = 77 ]; then echo test-deploy > .build/skipped/test-deploy; echo "test-deploy: SKIPPED (not passed)"; exit 0; fi; \
	exit $$rc

# ---- the quick tier ---------------------------------------------------------------------------
# What a developer runs between commits: no compositor, no bus, no browser, no root; about two
# minutes on two cores once built. `make test` runs all of it again, and the rest.

## test-fast: the quick tier between commits: test-fast-swift, test-fast-c and test-checks
test-fast: test-fast-swift test-fast-c test-checks
	@echo "make test-fast: passed ($^)"

## test-fast-swift: the Swift suite on the debug build (what test-swift runs, without make test's setup)
SWIFT_TEST_FLAGS ?=
test-fast-swift: deps-build
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS) $(BUILD_FLAGS)

## test-fast-c: the C client library against the daemon, and the renderer's input unit tests
# The renderer's input tests (Clients/wayland/tests/input_test.c) feed its listeners directly:
# they need its libraries to build, and no compositor to run.
test-fast-c: deps-wayland
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	$(MAKE) --no-print-directory -C Clients/c test PRESENTD=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/presentd
	$(MAKE) --no-print-directory -C Clients/wayland build/input-test
	Clients/wayland/build/input-test

## test-checks: the repository's checks, every Tests/checks/*.py (layer order, style)
test-checks:
	@rc=0; for check in Tests/checks/*.py; do [ -e "$$check" ] || continue; $(PYTHON) "$$check" || rc=1; done; exit $$rc
