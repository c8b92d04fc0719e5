# presentd — `make run` sets up a fresh Debian 12 machine and starts the daemon;
# `make test` sets it up and runs every test; `make help` lists every target. See README.md.
#
# This file holds the settings and the rules that span the tree; the rest is in mk/, one
# file a concern:
#   mk/deps.mk     the Debian packages, in one table with what each group is for
#   mk/swift.mk    the Swift package: build, release, run, install-daemon, openrpc
#   mk/clients.mk  the C programs in Clients/: the renderer, the bridge, their installs
#   mk/test.mk     every test suite (each adds itself to TEST_SUITES), and test-fast
#   mk/bench.mk    the benchmarks in bench/, soak-memory, presentctl-order
#   mk/deb.mk      the Debian packages (make deb, make deb-wayland)
# A target documents itself with a `## name: what it does` line above it: `make help` prints them.

# The toolchain: swift on PATH, else the usual install location.
SWIFT        ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PYTHON       ?= /usr/bin/python3
BUILD_FLAGS  ?=

# Where `make install` puts things.
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       ?= $(PREFIX)/bin
MANDIR       ?= $(PREFIX)/share/man
DOCDIR       ?= $(PREFIX)/share/doc/presentd
SYSCONFDIR   ?= /etc
UNITDIR      ?= $(PREFIX)/lib/systemd/system
USERUNITDIR  ?= $(PREFIX)/lib/systemd/user
# systemd-sysusers reads /usr/lib/sysusers.d and /etc/sysusers.d, never /usr/local.
SYSUSERSDIR  ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/sysusers.d,$(SYSCONFDIR)/sysusers.d)

.DEFAULT_GOAL := all
TEST_SUITES :=

include mk/deps.mk mk/swift.mk mk/clients.mk mk/test.mk mk/bench.mk mk/deb.mk

.PHONY: all install clean test help

## all: the debug build (make build); the default goal
all: build

## install: the daemon, presentctl, the renderer (INSTALL_WAYLAND=no: not) and the bridge, under $(DESTDIR)$(PREFIX)
install: install-daemon $(if $(filter yes,$(INSTALL_WAYLAND)),install-wayland) install-notify

## clean: remove every build (.build and the C programs' build directories)
clean: clean-swift clean-clients

# The test rule's prerequisites are expanded a second time, once every makefile is read
# ($$ and .SECONDEXPANSION): make otherwise expands a rule's prerequisites where it reads the
# rule, and a suite added to TEST_SUITES after it (in a file included later) would be named
# in the summary and never run, which once kept test-notify out of CI unnoticed. The summary
# lists the prerequisites make ran ($^), not the variable.
.SECONDEXPANSION:
## test: every test suite (TEST_SUITES), after installing what they need; then which passed and which were skipped
test: deps $$(TEST_SUITES)
	@skipped=$$(cat .build/skipped/* 2>/dev/null | paste -sd' ' -); passed=; \
	for s in $(filter-out deps,$^); do case " $$skipped " in *" $$s "*) ;; *) passed="$$passed $$s" ;; esac; done; \
	echo "make test: all suites passed ($${passed# })"; \
	if [ -n "$$skipped" ]; then echo "make test: SKIPPED on this machine, not passed: $$skipped"; fi

## help: this list: every target, from the `## name:` lines of the Makefile and mk/*.mk
help:
	@awk -f mk/help.awk $(MAKEFILE_LIST)
