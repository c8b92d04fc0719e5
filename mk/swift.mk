# mk/swift.mk — the Swift package: the daemon and presentctl, debug and release builds, running
# and installing them, and the OpenRPC document generated from the daemon.

.PHONY: build release run install-daemon openrpc clean-swift

## build: the debug build of every Swift product (swift build)
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
# memory in every process (docs/BENCHMARKS.md). They are linked as soon as anything
# refers to them, which a line of code can do unnoticed (a stored global in main.swift read by
# a function; `String.contains` of a string), so the release build looks for one symbol of each.
UNWANTED_IN_DAEMON := swift_task_create dispatch_main _swift_string_processing_getScript

CHECK_UNWANTED = found=$$(nm $(1) | awk '{ print $$NF }' | grep -xF $(foreach s,$(UNWANTED_IN_DAEMON),-e $(s)) | tr '\n' ' '); \
	if [ -n "$$found" ]; then \
	  echo "error: $(1) links a runtime library it does not use (it defines $$found): see UNWANTED_IN_DAEMON in mk/swift.mk" >&2; exit 1; \
	fi

## release: the release build (runtime linked statically), checked for runtime libraries it must not link
release: deps-build $(STATIC_CXX)/libstdc++.a
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(BUILD_FLAGS)
	@$(call CHECK_UNWANTED,$$($(SWIFT) build -c release --show-bin-path)/presentd)

## run: build in release mode and start the daemon in the foreground (RUN_ARGS: its options);
## on a Wayland session (WAYLAND_DISPLAY set) presentd-wayland too, drawing what is presented
# The renderer waits for presentd to serve and reconnects when it restarts, so it can start
# first; Ctrl-C reaches both (one process group). RENDERER_ARGS: the renderer's options.
run: release $(if $(WAYLAND_DISPLAY),wayland)
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	if [ -n "$$WAYLAND_DISPLAY" ]; then \
	  echo "presentd-wayland: drawing on the Wayland session $$WAYLAND_DISPLAY"; \
	  Clients/wayland/build/presentd-wayland $(RENDERER_ARGS) & \
	fi; \
	echo "presentd: starting; try, in another terminal:"; \
	echo "  $$bin/presentctl hello"; \
	echo "  $$bin/presentctl present --style alert --transition zoom --wait"; \
	exec $$bin/presentd $(RUN_ARGS)

## install-daemon: presentd, presentctl, their systemd units, sysusers file, configuration and man pages
# The binaries are INSTALL_CONFIG's (default release); the units, the sysusers file, the example configuration (copied to $(SYSCONFDIR)/presentd/presentd.json
# unless one is there) and the man pages, under $(DESTDIR)$(PREFIX). Units are installed
# where systemd looks for them under that prefix, with ExecStart= pointing at $(BINDIR).
INSTALL_CONFIG ?= release
INSTALL_FLAGS   = $(if $(filter release,$(INSTALL_CONFIG)),$(RELEASE_FLAGS))
install-daemon: deps-build $(STATIC_CXX)/libstdc++.a
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

## openrpc: regenerate docs/openrpc.json, the OpenRPC document rpc.discover returns
# (generated from
# the method table the decoder uses; SelfDescriptionTests fails when it is stale).
openrpc:
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	"$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/presentd" --print-openrpc | \
	  $(PYTHON) -m json.tool --indent 2 --no-ensure-ascii > docs/openrpc.json

## clean-swift: remove .build (every Swift build, the benches' and the fuzzer's binaries)
clean-swift:
	rm -rf .build
