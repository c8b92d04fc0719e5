# mk/clients.mk — the programs in Clients/: the C client library (Clients/c), the Wayland
# renderer (Clients/wayland, docs/WAYLAND.md) and the notification bridge (Clients/notify,
# docs/NOTIFICATIONS.md). Each has its own Makefile; these rules call it with this tree's
# settings. Their tests are in mk/test.mk, their benchmarks in mk/bench.mk.

.PHONY: wayland notify clients-bin install-wayland install-notify clean-clients

## wayland: the Wayland renderer, Clients/wayland/build/presentd-wayland (C, on the C client library)
wayland: deps-wayland
	$(MAKE) -C Clients/wayland

## notify: the notification bridge, Clients/notify/build/presentd-notify (C, on sd-bus)
notify: deps-build
	$(MAKE) -C Clients/notify

## clients-bin: the debug presentd and presentctl the client suites run against
clients-bin: deps
	$(SWIFT) build --product presentd $(BUILD_FLAGS)
	$(SWIFT) build --product presentctl $(BUILD_FLAGS)

## install-wayland: presentd-wayland, its user unit and man page
# make install runs it unless INSTALL_WAYLAND=no; the .deb leaves it out.
INSTALL_WAYLAND ?= yes
install-wayland: wayland
	$(MAKE) -C Clients/wayland install DESTDIR="$(DESTDIR)" BINDIR="$(BINDIR)"
	install -d "$(DESTDIR)$(USERUNITDIR)" "$(DESTDIR)$(MANDIR)/man1"
	sed 's|/usr/local/bin/presentd-wayland|$(BINDIR)/presentd-wayland|' systemd/user/presentd-wayland.service \
	  > "$(DESTDIR)$(USERUNITDIR)/presentd-wayland.service"
	chmod 0644 "$(DESTDIR)$(USERUNITDIR)/presentd-wayland.service"
	install -m 0644 docs/man/presentd-wayland.1 "$(DESTDIR)$(MANDIR)/man1/"

## install-notify: presentd-notify, its D-Bus activation file, user unit and man page (make install runs it)
install-notify: deps-build
	$(MAKE) -C Clients/notify install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) BINDIR=$(BINDIR) \
	  USERUNITDIR=$(USERUNITDIR) MANDIR=$(MANDIR)

## clean-clients: remove the C programs' build directories
clean-clients:
	$(MAKE) -C Clients/c clean
	$(MAKE) -C Clients/notify clean
	$(MAKE) -C Clients/wayland clean
