# presentd — `make run` sets up a fresh Debian 12 machine and starts the daemon;
# `make test` sets it up and runs every test. See README.md.

# The toolchain: swift on PATH, else the usual install location.
SWIFT        ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD_FLAGS  ?=
# Debian packages (checked, and installed when missing): BUILD_PACKAGES to build and run
# the daemon; DEB_PACKAGES adds what the test suites need.
BUILD_PACKAGES := libuv1-dev libjson-c-dev pkg-config
DEB_PACKAGES := $(BUILD_PACKAGES) socat python3 systemd
# binutils: objdump, with which the fuzz script checks its binary's instrumentation.
DEB_PACKAGES += binutils
DEB_PACKAGES += python3-pytest python3-pip python3-setuptools python3-wheel python3-pil fonts-dejavu-core gcc chromium tmux

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps deps-build build release run test test-swift clean fuzz fuzz-quick soak soak-quick

all: build

## deps: install the Debian packages that are missing (apt-get, with sudo when not root);
## deps-build only those the build needs (what `make run` waits for on a fresh machine).
INSTALL_MISSING = @missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi; \
	test -x "$(SWIFT)" || command -v "$(SWIFT)" >/dev/null || { echo "error: no Swift 6 toolchain (swift on PATH or /opt/swift)" >&2; exit 1; }

deps:
	$(call INSTALL_MISSING,$(DEB_PACKAGES))

deps-build:
	$(call INSTALL_MISSING,$(BUILD_PACKAGES))

build: deps-build
	$(SWIFT) build $(BUILD_FLAGS)

# Release builds link the Swift runtime statically: the binary runs where no Swift is
# installed (the package), and idles smaller than with the shared runtime. The runtime's
# C++ library goes in statically too: loading libstdc++.so and binding its 4,300 symbols was
# most of a `presentctl ping` (2.8 M instructions, 2.1 M in the dynamic loader; 1.1 M
# without it). swiftc asks for -lstdc++ itself, and ld takes a directory's libstdc++.so over
# its libstdc++.a, so STATIC_CXX holds the archive alone, searched first.
#
# The daemon stays a position-independent executable (PIE=yes): it serves every local user,
# and keeps the randomised addresses of its own code, the statically linked runtime included.
# `make release PIE=no` links it at a fixed position instead, for memory-bound devices: a
# position-independent executable has its pointers written at every start, which leaves its
# relocated read-only data private and dirty in every process (docs/BENCHMARKS.md has both
# figures). presentctl is linked statically whatever PIE says (Package.swift): a process that
# lives a millisecond and runs with its user's rights starts with no dynamic loader at all.
#
# The unwinder the static C++ library needs goes in statically too (-static-libgcc): mapping
# libgcc_s.so costs every process its relocated data pages for a few functions. And the
# executable exports no symbols of its own (--no-export-dynamic, after the static runtime's
# own -export-dynamic): no library looks anything up in the daemon, and the loader has
# fewer symbols to map and bind (docs/BENCHMARKS.md has what each saves).
STATIC_CXX    := .build/static-cxx
PIE           ?= yes
RELEASE_FLAGS := --static-swift-stdlib -Xlinker -L$(CURDIR)/$(STATIC_CXX) $(if $(filter no,$(PIE)),-Xlinker -no-pie) \
	-Xswiftc -Xclang-linker -Xswiftc -static-libgcc -Xlinker --no-export-dynamic

$(STATIC_CXX)/libstdc++.a:
	@mkdir -p $(STATIC_CXX)
	ln -sf "$$($(CC) -print-file-name=libstdc++.a)" $@

# Runtime libraries the daemon does not use and must not link: the concurrency runtime (with
# libdispatch) and _StringProcessing (with the regex parser). Each brings tables of pointers
# that a position-independent executable writes at start, which makes their pages private
# memory in every process (docs/BENCHMARKS.md, issue 28). They are linked as soon as anything
# refers to them, which a line of code can do unnoticed (a stored global in main.swift read by
# a function; `String.contains` of a string), so the release build looks for one symbol of each.
UNWANTED_IN_DAEMON := swift_task_create dispatch_main _swift_string_processing_getScript

release: deps-build $(STATIC_CXX)/libstdc++.a
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(BUILD_FLAGS)
	@$(call CHECK_UNWANTED,$$($(SWIFT) build -c release --show-bin-path)/presentd)

CHECK_UNWANTED = found=$$(nm $(1) | awk '{ print $$NF }' | grep -xF $(foreach s,$(UNWANTED_IN_DAEMON),-e $(s)) | tr '\n' ' '); \
	if [ -n "$$found" ]; then \
	  echo "error: $(1) links a runtime library it does not use (it defines $$found): see UNWANTED_IN_DAEMON in the Makefile" >&2; exit 1; \
	fi

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
TEST_SUITES += test-python
TEST_SUITES += test-c
TEST_SUITES += test-web
TEST_SUITES += test-terminal
TEST_SUITES += test-docs
TEST_SUITES += fuzz-quick
TEST_SUITES += soak-quick
TEST_SUITES += test-systemd
# Skipped (and said so) where the machine cannot boot systemd in a namespace.
TEST_SUITES += test-deploy

# ---- presentd-wayland (Clients/wayland, docs/WAYLAND.md) ------------------------------------
## wayland: the Wayland renderer, build/presentd-wayland in Clients/wayland (C, beside the C client).
## test-wayland: it on a real headless sway, read back with grim and tesseract; where sway cannot
## run it says why in one line and is reported SKIPPED (never as passed).
## install also installs it and its user unit (INSTALL_WAYLAND=no: not; the .deb leaves it out).
WAYLAND_BUILD_PACKAGES := libwayland-dev wayland-protocols libcairo2-dev libpango1.0-dev librsvg2-dev libxkbcommon-dev \
	libatk1.0-dev libatk-bridge2.0-dev libatspi2.0-dev
# at-spi2-core (the accessibility bus), dbus and python3-pyatspi: the screen-reader tests (test_a11y.py).
DEB_PACKAGES += $(WAYLAND_BUILD_PACKAGES) sway grim tesseract-ocr waybar weston adwaita-icon-theme wtype \
	at-spi2-core dbus python3-pyatspi
TEST_SUITES += test-wayland
INSTALL_WAYLAND ?= yes
.PHONY: wayland deps-wayland test-wayland install-wayland
deps-wayland:
	$(call INSTALL_MISSING,$(BUILD_PACKAGES) $(WAYLAND_BUILD_PACKAGES))

wayland: deps-wayland
	$(MAKE) -C Clients/wayland

test-wayland: clients-bin wayland notify
	@mkdir -p .build/skipped; rm -f .build/skipped/test-wayland
	$(CLIENTS_PYTEST) Clients/wayland/tests

## bench-wayland: its CPU and time per drawn frame and its memory, at 1080p and 4K, and
## present-to-glass (docs/BENCHMARKS.md).
## bench-glass: present-to-glass alone, p50 and p99, on headless sway and weston (make bench runs
## it; a SKIPPED line for a compositor, or the renderer's libraries, that is missing).
.PHONY: bench-wayland bench-glass
bench-wayland: clients-bin wayland
	bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	  PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) Clients/wayland/bench.py

bench-glass: release
	@if pkg-config --exists wayland-client cairo pangocairo librsvg-2.0 xkbcommon json-c; then \
	  $(MAKE) --no-print-directory -C Clients/wayland >/dev/null && \
	  PRESENTD=$$($(SWIFT) build -c release --show-bin-path)/presentd $(PYTHON) Clients/wayland/bench.py --glass; \
	else echo "present-to-glass: SKIPPED (presentd-wayland's libraries are not installed: make deps-wayland)"; fi

## deb-wayland: presentd-wayland_VERSION_ARCH.deb, a second binary package (make deb leaves it out).
.PHONY: deb-wayland
deb-wayland: deps-wayland
	$(call INSTALL_MISSING,$(DEB_TOOLS))
	rm -rf .build/deb-wayland/root
	$(MAKE) --no-print-directory install-wayland DESTDIR=$(CURDIR)/.build/deb-wayland/root PREFIX=/usr
	packaging/debian/build-deb-wayland.sh .build/deb-wayland/root $(DEB_OUT)

install: $(if $(filter yes,$(INSTALL_WAYLAND)),install-wayland)
install-wayland: wayland
	$(MAKE) -C Clients/wayland install DESTDIR="$(DESTDIR)" BINDIR="$(BINDIR)"
	install -d "$(DESTDIR)$(USERUNITDIR)" "$(DESTDIR)$(MANDIR)/man1"
	sed 's|/usr/local/bin/presentd-wayland|$(BINDIR)/presentd-wayland|' systemd/user/presentd-wayland.service \
	  > "$(DESTDIR)$(USERUNITDIR)/presentd-wayland.service"
	chmod 0644 "$(DESTDIR)$(USERUNITDIR)/presentd-wayland.service"
	install -m 0644 docs/man/presentd-wayland.1 "$(DESTDIR)$(MANDIR)/man1/"
# ---- end of presentd-wayland ------------------------------------------------------------------

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

## soak: 50 clients doing random things to presentd for SOAK_SECONDS (default 600): every
## request answered, invariants checked continuously. The first half runs the release build,
## whose memory must stay flat after warm-up; the second half a build with AddressSanitizer,
## which must report no memory error and no leak at exit (its allocator's caches make RSS a
## poor measure, so it only gets a loose bound). soak-quick is the 60-second run `make test` includes.
SOAK_SECONDS ?= 600
SOAK = $(SWIFT) build -c release --product presentd $(RELEASE_FLAGS) $(BUILD_FLAGS) && \
	python3 Tests/Hardening/soak.py --daemon "$$($(SWIFT) build -c release --show-bin-path)/presentd" --seconds $$(( $(1) / 2 )) && \
	$(SWIFT) build --product presentd --sanitize=address --scratch-path .build/asan $(BUILD_FLAGS) && \
	ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 python3 Tests/Hardening/soak.py --rss-growth 25 \
	  --daemon "$$($(SWIFT) build --show-bin-path --sanitize=address --scratch-path .build/asan)/presentd" --seconds $$(( $(1) / 2 ))

soak: deps $(STATIC_CXX)/libstdc++.a
	$(call SOAK,$(SOAK_SECONDS))

soak-quick: deps $(STATIC_CXX)/libstdc++.a
	$(call SOAK,60)
## install: binaries (release build, Swift runtime linked statically), systemd units, the sysusers file, the example
## configuration (copied to $(SYSCONFDIR)/presentd/presentd.json unless one is there) and the
## man pages, under $(DESTDIR)$(PREFIX). Units are installed where systemd looks for them
## under that prefix, with ExecStart= pointing at $(BINDIR).
BINDIR        ?= $(PREFIX)/bin
MANDIR        ?= $(PREFIX)/share/man
DOCDIR        ?= $(PREFIX)/share/doc/presentd
SYSCONFDIR    ?= /etc
UNITDIR       ?= $(PREFIX)/lib/systemd/system
USERUNITDIR   ?= $(PREFIX)/lib/systemd/user
# systemd-sysusers reads /usr/lib/sysusers.d and /etc/sysusers.d, never /usr/local.
SYSUSERSDIR   ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/sysusers.d,$(SYSCONFDIR)/sysusers.d)
INSTALL_CONFIG ?= release
# test-systemd formats the man pages.
DEB_PACKAGES += man-db

.PHONY: install test-systemd
INSTALL_FLAGS  = $(if $(filter release,$(INSTALL_CONFIG)),$(RELEASE_FLAGS))
install: deps-build $(STATIC_CXX)/libstdc++.a
	$(SWIFT) build -c $(INSTALL_CONFIG) --product presentd $(INSTALL_FLAGS) $(BUILD_FLAGS)
	$(SWIFT) build -c $(INSTALL_CONFIG) --product presentctl $(INSTALL_FLAGS) $(BUILD_FLAGS)
	@bin=$$($(SWIFT) build -c $(INSTALL_CONFIG) --show-bin-path); set -e; \
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(USERUNITDIR)" \
	  "$(DESTDIR)$(SYSUSERSDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man8" \
	  "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(SYSCONFDIR)/presentd"; \
	install -m 0755 "$$bin/presentd" "$$bin/presentctl" "$(DESTDIR)$(BINDIR)/"; \
	for unit in presentd.socket presentd.service; do \
	  sed 's|/usr/local/bin/presentd|$(BINDIR)/presentd|' systemd/$$unit > "$(DESTDIR)$(UNITDIR)/$$unit"; \
	  sed 's|/usr/local/bin/presentd|$(BINDIR)/presentd|' systemd/user/$$unit > "$(DESTDIR)$(USERUNITDIR)/$$unit"; \
	  chmod 0644 "$(DESTDIR)$(UNITDIR)/$$unit" "$(DESTDIR)$(USERUNITDIR)/$$unit"; \
	done; \
	install -m 0644 systemd/presentd.sysusers "$(DESTDIR)$(SYSUSERSDIR)/presentd.conf"; \
	install -m 0644 docs/man/presentctl.1 "$(DESTDIR)$(MANDIR)/man1/"; \
	install -m 0644 docs/man/presentd.8 "$(DESTDIR)$(MANDIR)/man8/"; \
	install -m 0644 systemd/presentd.json "$(DESTDIR)$(DOCDIR)/presentd.example.json"; \
	if [ -e "$(DESTDIR)$(SYSCONFDIR)/presentd/presentd.json" ]; then \
	  echo "kept $(DESTDIR)$(SYSCONFDIR)/presentd/presentd.json (the example is $(DOCDIR)/presentd.example.json)"; \
	else install -m 0644 systemd/presentd.json "$(DESTDIR)$(SYSCONFDIR)/presentd/presentd.json"; fi; \
	echo "installed presentd under $(DESTDIR)$(PREFIX); next: systemd-sysusers, systemctl daemon-reload, systemctl enable --now presentd.socket"

## test-systemd: the units pass `systemd-analyze verify` silently and `security` rates the
## service SAFE; a scratch install is complete; the man pages format without warnings.
## (The daemon's systemd behaviour is tested by test-swift: SystemdTests.)
test-systemd: deps
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	$(SWIFT) build --product presentctl $(BUILD_FLAGS)
	Tests/systemd/check-units.sh "$(MAKE)"

## deb: presentd_VERSION_ARCH.deb in this directory, with dpkg-deb (no debhelper): `make install`
## into a staging tree (release binaries with RELEASE_FLAGS' --static-swift-stdlib, so no Swift is needed where
## it is installed), then packaging/debian/build-deb.sh (version from presentdVersion, Depends
## from dpkg-shlibdeps, maintainer scripts, lintian). DEB_VERSION_SUFFIX=+x1 makes a later version.
DEB_TOOLS       := dpkg-dev lintian binutils
DEB_BUILD_FLAGS := -Xlinker -z -Xlinker now
DEB_STAGE       := .build/deb/root
DEB_OUT         ?= .
.PHONY: deb
deb:
	$(call INSTALL_MISSING,$(BUILD_PACKAGES) $(DEB_TOOLS))
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install INSTALL_WAYLAND=no DESTDIR=$(CURDIR)/$(DEB_STAGE) PREFIX=/usr \
	  BUILD_FLAGS="$(BUILD_FLAGS) $(DEB_BUILD_FLAGS)"
	packaging/debian/build-deb.sh $(DEB_STAGE) $(DEB_OUT)

## test-deploy: the package under a real systemd as PID 1 (Tests/deploy/test-deploy.sh): a
## Debian 12 root made once by debootstrap and cached in /var/tmp/presentd-sysbox, booted in
## namespaces of its own; install, socket activation, permissions, sandbox, kill -9, watchdog,
## reload, user units, upgrade, remove, purge. Needs root and namespaces: where the machine
## cannot, it says why in one line and is reported as SKIPPED (never as passed).
DEPLOY_PACKAGES := $(BUILD_PACKAGES) $(DEB_TOOLS) debootstrap gcc
DEB_PACKAGES += $(DEB_TOOLS) debootstrap
.PHONY: test-deploy deps-deploy
deps-deploy:
	$(call INSTALL_MISSING,$(DEPLOY_PACKAGES))

test-deploy:
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory deps-deploy; fi
	@mkdir -p .build/skipped; rm -f .build/skipped/test-deploy; rc=0; \
	MAKE="$(MAKE)" Tests/deploy/test-deploy.sh || rc=$$?; \
	if [ $$rc = 77 ]; then echo test-deploy > .build/skipped/test-deploy; echo "test-deploy: SKIPPED (not passed)"; exit 0; fi; \
	exit $$rc

clean:
	rm -rf .build

## Clients/ (see README.md, Clients): the Python-driven suites run Debian's python3 and
## pytest against the daemon built here, found through $PRESENTD and $PRESENTCTL.
PYTHON ?= /usr/bin/python3
CLIENTS_PYTEST = bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) -m pytest -c Clients/pytest.ini

.PHONY: clients-bin test-python test-c test-web test-terminal
clients-bin: deps
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	$(SWIFT) build --product presentctl $(BUILD_FLAGS)

## test-python: the Python package (sync and asyncio clients, the recorder, pip install) against the real daemon
test-python: clients-bin
	$(CLIENTS_PYTEST) Clients/python/tests

## test-c: the C client library (Clients/c) and its example renderer, against the real daemon
test-c: clients-bin
	$(MAKE) -C Clients/c test PRESENTD=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/presentd

## test-web: the browser viewer's bridge (python -m presentd.web) and the page in headless Chromium
test-web: clients-bin
	$(CLIENTS_PYTEST) Clients/web/tests

## test-terminal: presentctl watch --draw in tmux, read back with capture-pane
test-terminal: clients-bin
	$(CLIENTS_PYTEST) Clients/terminal/tests

## test-docs: the documents' examples against the real daemon: docs/PROTOCOL.md's transcripts
## (docs/examples.py) and every README example and its presentd synopsis (docs/readme_examples.py;
## jq and socat are in its examples).
.PHONY: test-docs
DEB_PACKAGES += jq
test-docs: clients-bin
	bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	PRESENTD=$$bin/presentd $(PYTHON) docs/examples.py --check && \
	PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) docs/readme_examples.py --check

## bench: presentd (release) against the C baseline in bench/baseline and, when installed, a
## headless sway (short-lived clients, round trip, presentctl vs swaymsg); prints a table of
## figures and ratios and writes bench/out/results.json (about 5 minutes).
## bench-quick: the same in a few seconds (1 and 100 subscribers, 1 s windows).
BENCH_BIN    := .build/bench
BENCH_CFLAGS ?= -O2 -g -Wall -Wextra
BENCH_ARGS   ?=

.PHONY: bench bench-quick

$(BENCH_BIN)/baseline: bench/baseline/baseline.c
	@mkdir -p $(BENCH_BIN)
	cc $(BENCH_CFLAGS) -o $@ $< $$(pkg-config --cflags --libs libuv json-c)

$(BENCH_BIN)/loadgen: bench/loadgen.c
	@mkdir -p $(BENCH_BIN)
	cc $(BENCH_CFLAGS) -o $@ $< -lm

bench bench-quick: release $(BENCH_BIN)/baseline $(BENCH_BIN)/loadgen
	python3 bench/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --baseline $(BENCH_BIN)/baseline --loadgen $(BENCH_BIN)/loadgen \
	  $(if $(filter bench-quick,$@),--quick --out bench/out/results-quick.json) $(BENCH_ARGS)
	$(MAKE) --no-print-directory bench-notify$(if $(filter bench-quick,$@),-quick)
	$(if $(filter bench,$@),@$(MAKE) --no-print-directory bench-glass)

## presentctl-order: rewrite Sources/presentctl/startup.order, the functions and data presentctl's
## common commands touch, which its release link places side by side (bench/presentctl_order.py,
## under valgrind), and relink presentctl with it (SwiftPM does not see the file change).
.PHONY: presentctl-order
presentctl-order: release
	@command -v valgrind >/dev/null || { echo "presentctl-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	python3 bench/presentctl_order.py --bin "$$bin" --swiftc "$(dir $(SWIFT))swiftc" && rm -f "$$bin/presentctl"
	$(SWIFT) build -c release --product presentctl $(RELEASE_FLAGS) $(BUILD_FLAGS)

## soak-memory: presentd (release) under churn for SOAK_MEMORY_SECONDS (default 600): its private
## dirty memory and PSS sampled after every round, and their slope over the second half
## (bench/out/soak-memory.json; docs/BENCHMARKS.md). Not in `make test`: it is the length that counts.
SOAK_MEMORY_SECONDS ?= 600
.PHONY: soak-memory
soak-memory: release $(BENCH_BIN)/baseline $(BENCH_BIN)/loadgen
	python3 bench/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --baseline $(BENCH_BIN)/baseline --loadgen $(BENCH_BIN)/loadgen --soak $(SOAK_MEMORY_SECONDS) $(BENCH_ARGS)

## openrpc: docs/openrpc.json, the OpenRPC document rpc.discover returns (generated from
## the method table the decoder uses; SelfDescriptionTests fails when it is stale).
.PHONY: openrpc
openrpc:
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	"$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/presentd" --print-openrpc | \
	  $(PYTHON) -m json.tool --indent 2 --no-ensure-ascii > docs/openrpc.json

## -- presentd-notify (Clients/notify): org.freedesktop.Notifications through presentd ------
## test-notify: the bridge on a private session bus, the real presentd (manual clock), driven
## by notify-send, gdbus, dbus-send and GLib (docs/NOTIFICATIONS.md).
## `make install` installs it too (the binary, the D-Bus activation file, the user unit, the man page).
BUILD_PACKAGES += libsystemd-dev zlib1g-dev
DEB_PACKAGES += libsystemd-dev zlib1g-dev dbus-daemon dbus-bin dbus-session-bus-common libnotify-bin libglib2.0-bin \
  python3-gi python3-dbus
TEST_SUITES += test-notify
.PHONY: notify test-notify install-notify clean-notify
notify: deps-build
	$(MAKE) -C Clients/notify

install: install-notify
clean: clean-notify
clean-notify:
	$(MAKE) -C Clients/notify clean
install-notify: deps-build
	$(MAKE) -C Clients/notify install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) BINDIR=$(BINDIR) \
	  USERUNITDIR=$(USERUNITDIR) MANDIR=$(MANDIR)

test-notify: clients-bin
	$(MAKE) -C Clients/notify
	$(CLIENTS_PYTEST) Clients/notify/tests

## bench-notify: Notify round trip, calls per second in a burst, CPU and memory, presentd-notify
## (with the release presentd) against mako, side by side, and dunst, on a headless sway
## (about 30 s; bench-notify-quick: about 10 s). `make bench` and `make bench-quick` run it
## too; without sway or mako it says SKIPPED and why (`apt-get install sway mako-notifier dunst`).
.PHONY: bench-notify bench-notify-quick
NOTIFY_BENCH_MISSING = $(strip $(foreach p,sway mako,$(if $(shell command -v $(p)),,$(p))))
bench-notify bench-notify-quick: release
	$(if $(NOTIFY_BENCH_MISSING),@echo "bench-notify: SKIPPED: $(NOTIFY_BENCH_MISSING) not installed (apt-get install sway mako-notifier dunst)",$(MAKE) --no-print-directory -C Clients/notify all bench-client)
	$(if $(NOTIFY_BENCH_MISSING),,mkdir -p bench/out && \
	$(PYTHON) Clients/notify/bench/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --bridge Clients/notify/build/presentd-notify \
	  $(if $(filter bench-notify-quick,$@),--quick --json bench/out/notify-quick.json,--json bench/out/notify.json))
## -- end of presentd-notify ----------------------------------------------------------------

## -- test: the rule stands last, after every `TEST_SUITES +=` above: make expands a rule's
## prerequisites where it reads the rule, so a suite added below it would be named in the
## summary and never run. The summary lists the prerequisites make ran ($^), not the variable.
test: deps $(TEST_SUITES)
	@skipped=$$(cat .build/skipped/* 2>/dev/null | paste -sd' ' -); passed=; \
	for s in $(filter-out deps,$^); do case " $$skipped " in *" $$s "*) ;; *) passed="$$passed $$s" ;; esac; done; \
	echo "make test: all suites passed ($${passed# })"; \
	if [ -n "$$skipped" ]; then echo "make test: SKIPPED on this machine, not passed: $$skipped"; fi
