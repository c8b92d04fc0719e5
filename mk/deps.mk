# mk/deps.mk — the Debian packages each part of the tree needs, in one table, and the rules
# that install the missing ones (apt-get, with sudo when not root).
#
# One group a row: PKGS.<group> are its packages, WHY.<group> what they are for (printed when
# they are installed, so a fresh machine says what it is given). BUILD_PACKAGES (what
# `make run` and `make install` wait for) and DEB_PACKAGES (everything `make test` needs) are
# made from the groups here and nowhere else.

PKGS.build         := libuv1-dev libjson-c-dev pkg-config
WHY.build          := the daemon's build (libuv, json-c)
PKGS.notify-build  := libsystemd-dev zlib1g-dev
WHY.notify-build   := presentd-notify's build (sd-bus, zlib)
PKGS.wayland-build := libwayland-dev wayland-protocols libcairo2-dev libpango1.0-dev librsvg2-dev libxkbcommon-dev \
	libatk1.0-dev libatk-bridge2.0-dev libatspi2.0-dev
WHY.wayland-build  := presentd-wayland's build (Wayland, cairo, pango, rsvg, xkbcommon, ATK)
PKGS.deb           := dpkg-dev lintian binutils
WHY.deb            := make deb (dpkg-deb, dpkg-shlibdeps, lintian)
# socat and jq are in the README's examples; systemd gives systemd-analyze; man-db formats the
# man pages; binutils' objdump checks the fuzzer's instrumentation.
PKGS.test          := socat jq python3 systemd man-db binutils
WHY.test           := test-docs, test-systemd and fuzz (socat, jq, systemd-analyze, man, objdump)
PKGS.test-clients  := python3-pytest python3-pip python3-setuptools python3-wheel python3-pil fonts-dejavu-core gcc
WHY.test-clients   := the client suites (pytest, pip install of the package, PIL, the C compiler)
PKGS.test-web      := chromium
WHY.test-web       := test-web (the viewer page in headless Chromium)
PKGS.test-terminal := tmux
WHY.test-terminal  := test-terminal (presentctl watch --draw read back with capture-pane)
# at-spi2-core (the accessibility bus), dbus and python3-pyatspi: the screen-reader tests (test_a11y.py).
PKGS.test-wayland  := sway grim tesseract-ocr waybar weston adwaita-icon-theme wtype at-spi2-core dbus python3-pyatspi
WHY.test-wayland   := test-wayland (headless sway and weston, grim and tesseract to read the screen, at-spi)
PKGS.test-notify   := dbus-daemon dbus-bin dbus-session-bus-common libnotify-bin libglib2.0-bin python3-gi python3-dbus
WHY.test-notify    := test-notify (a private session bus, notify-send, gdbus, GLib)
PKGS.test-deploy   := debootstrap gcc
WHY.test-deploy    := test-deploy (debootstrap for the Debian 12 root it boots, gcc for its C waiter)

BUILD_GROUPS   := build notify-build
TEST_GROUPS    := $(BUILD_GROUPS) wayland-build deb test test-clients test-web test-terminal test-wayland test-notify test-deploy
BUILD_PACKAGES := $(foreach g,$(BUILD_GROUPS),$(PKGS.$(g)))
DEB_PACKAGES   := $(foreach g,$(TEST_GROUPS),$(PKGS.$(g)))

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# $(call INSTALL_MISSING,groups): one line naming the missing packages of those groups and
# what each is for, then apt-get; nothing at all when every package is there. And a Swift 6
# toolchain must be there (it is not a Debian package).
INSTALL_MISSING = @missing=""; why=""; \
	$(foreach g,$(1),m=""; for p in $(PKGS.$(g)); do \
	  case " $$missing$$m " in (*" $$p "*) continue ;; esac; \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || m="$$m $$p"; \
	done; if [ -n "$$m" ]; then missing="$$missing$$m"; why="$$why; for $(WHY.$(g)):$$m"; fi;) \
	if [ -n "$$missing" ]; then \
	  echo "make: installing $$(echo $$missing | wc -w) Debian packages with $(if $(SUDO),sudo )apt-get:$${why\#;}"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi; \
	test -x "$(SWIFT)" || command -v "$(SWIFT)" >/dev/null || { echo "error: no Swift 6 toolchain (swift on PATH or /opt/swift)" >&2; exit 1; }

.PHONY: deps deps-build deps-wayland deps-deploy

## deps: install the missing Debian packages every suite needs, saying which and why first
deps:
	$(call INSTALL_MISSING,$(TEST_GROUPS))

## deps-build: only those the daemon's and the bridge's builds need (what `make run` waits for)
deps-build:
	$(call INSTALL_MISSING,$(BUILD_GROUPS))

## deps-wayland: those and presentd-wayland's libraries
deps-wayland:
	$(call INSTALL_MISSING,$(BUILD_GROUPS) wayland-build)

## deps-deploy: what test-deploy needs on the host (the build, dpkg tools, debootstrap)
deps-deploy:
	$(call INSTALL_MISSING,$(BUILD_GROUPS) deb test-deploy)
