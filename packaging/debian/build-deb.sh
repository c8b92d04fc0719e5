#!/usr/bin/env bash
# build-deb.sh STAGE OUTDIR — turn a `make install DESTDIR=STAGE PREFIX=/usr` tree into
# OUTDIR/presentd_VERSION_ARCH.deb with dpkg-deb (no debhelper). `make deb` runs it.
#
# VERSION, ARCH and the paths come from common.sh. Depends is what dpkg-shlibdeps finds the
# binaries link, plus systemd (postinst runs systemd-sysusers).
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

# Binaries: stripped as Policy 10.1 asks; no Swift runtime library may be needed.
for b in "$STAGE"/usr/bin/*; do
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$b"
    if objdump -p "$b" | grep -q 'NEEDED *libswift'; then
        echo "build-deb: $b links a Swift runtime library (build with --static-swift-stdlib)" >&2; exit 1
    fi
done
# The man pages name the version in their header; compress them without a timestamp.
for m in "$STAGE"/usr/share/man/man*/*.[0-9]; do
    sed -i "1,5s/^\(\.TH .*\)\"presentd [0-9][^\"]*\"/\1\"presentd $VERSION\"/" "$m"
    gzip -9nf "$m"
done
DOC=$STAGE/usr/share/doc/presentd
install -d -m 0755 "$DOC" "$STAGE/usr/share/lintian/overrides"
install -m 0644 "$HERE/copyright" "$DOC/copyright"
install -m 0644 "$HERE/lintian-overrides" "$STAGE/usr/share/lintian/overrides/presentd"
# A native package: changelog.gz, one entry for this version.
{
    printf 'presentd (%s) bookworm; urgency=medium\n\n' "$VERSION"
    printf '  * Built by make deb from %s.\n\n' "$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo 'a source tree')"
    printf ' -- presentd maintainers <maintainers@users.noreply.a-seed-8edc040f.example>  %s\n' \
        "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$DOC/changelog.gz"
chmod 0644 "$DOC/changelog.gz"

# DEBIAN/: scripts, conffiles, md5sums (conffiles left out, as dh_md5sums does), control.
install -d -m 0755 "$STAGE/DEBIAN"
install -m 0755 "$HERE/postinst" "$HERE/prerm" "$HERE/postrm" "$STAGE/DEBIAN/"
(cd "$STAGE" && find etc -type f | sort | sed 's|^|/|') > "$STAGE/DEBIAN/conffiles"
chmod 0644 "$STAGE/DEBIAN/conffiles"
(cd "$STAGE" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -print | sed 's|^\./||' | sort |
    xargs md5sum) > "$STAGE/DEBIAN/md5sums"
chmod 0644 "$STAGE/DEBIAN/md5sums"

# Depends: dpkg-shlibdeps wants a debian/control in its working directory (an empty one will
# do) and a binary inside a tree with DEBIAN/.
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/debian"; : > "$scratch/debian/control"
if command -v dpkg-shlibdeps >/dev/null; then
    shlibs=$(cd "$scratch" && dpkg-shlibdeps -O "$STAGE"/usr/bin/* 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
else
    # Without dpkg-dev: the package of each NEEDED library, unversioned.
    shlibs=$(for b in "$STAGE"/usr/bin/*; do objdump -p "$b" | awk '$1 == "NEEDED" { print $2 }'; done | sort -u |
        while read -r lib; do dpkg -S "*/$lib" 2>/dev/null | head -1 | cut -d: -f1; done | sort -u | paste -sd, | sed 's/,/, /g')
fi
[ -n "$shlibs" ] || { echo "build-deb: could not compute Depends" >&2; exit 1; }
DEPENDS="$shlibs, systemd"
SIZE=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@ARCH@|$ARCH|" -e "s|@SIZE@|$SIZE|" -e "s|@DEPENDS@|$DEPENDS|" \
    "$HERE/control.in" > "$STAGE/DEBIAN/control"
chmod 0644 "$STAGE/DEBIAN/control"

find "$STAGE" -type d -exec chmod 0755 {} +
DEB=$OUT/presentd_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
echo "$DEB" > "$STAGE.deb-path"
echo "built $DEB ($(du -h "$DEB" | cut -f1); Depends: $DEPENDS)"
if [ "${DEB_LINTIAN:-yes}" = no ]; then
    echo "lintian: not run (DEB_LINTIAN=no)"
elif command -v lintian >/dev/null; then
    if ! out=$(lintian --fail-on error,warning "$DEB" 2>&1); then
        echo "$out" >&2; echo "build-deb: lintian reports errors or warnings" >&2; exit 1
    fi
    echo "lintian: no errors or warnings"
else
    echo "lintian: not installed, not checked (apt-get install lintian)"
fi
