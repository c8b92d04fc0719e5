# mk/deb.mk — the Debian packages, built with dpkg-deb (no debhelper) from a `make install`
# into a staging tree (packaging/debian).

.PHONY: deb deb-wayland

DEB_BUILD_FLAGS := -Xlinker -z -Xlinker now
DEB_STAGE       := .build/deb/root
DEB_OUT         ?= .

## deb: presentd_VERSION_ARCH.deb in DEB_OUT (default: this directory), with dpkg-deb
# `make install` into a staging tree (release binaries with RELEASE_FLAGS' --static-swift-stdlib, so no Swift is needed where
# it is installed), then packaging/debian/build-deb.sh (version from presentdVersion, Depends
# from dpkg-shlibdeps, maintainer scripts, lintian). DEB_VERSION_SUFFIX=+x1 makes a later version.
deb:
	$(call INSTALL_MISSING,$(BUILD_GROUPS) deb)
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install INSTALL_WAYLAND=no DESTDIR=$(CURDIR)/$(DEB_STAGE) PREFIX=/usr \
	  BUILD_FLAGS="$(BUILD_FLAGS) $(DEB_BUILD_FLAGS)"
	packaging/debian/build-deb.sh $(DEB_STAGE) $(DEB_OUT)

## deb-wayland: presentd-wayland_VERSION_ARCH.deb, a second binary package (make deb leaves it out)
deb-wayland: deps-wayland
	$(call INSTALL_MISSING,deb)
	rm -rf .build/deb-wayland/root
	$(MAKE) --no-print-directory install-wayland DESTDIR=$(CURDIR)/.build/deb-wayland/root PREFIX=/usr
	packaging/debian/build-deb-wayland.sh .build/deb-wayland/root $(DEB_OUT)
