#!/usr/bin/env bash
# build-deb-wayland.sh STAGE OUTDIR — turn a `make install-wayland DESTDIR=STAGE PREFIX=/usr`
# tree into OUTDIR/presentd-wayland_VERSION_ARCH.deb, a second binary package beside presentd's
# (its libraries — libwayland, cairo, pango, librsvg — stay out of the daemon's Depends).
# `make deb-wayland` runs it. VERSION (presentd's), ARCH and the paths come from common.sh;
# Depends is what dpkg-shlibdeps finds the binary links.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

strip --strip-unneeded --remove-section=.comment --remove-section=.note "$STAGE/usr/bin/presentd-wayland"
for m in "$STAGE"/usr/share/man/man*/*.[0-9]; do
    sed -i "1,5s/^\(\.TH .*\)\"presentd [0-9][^\"]*\"/\1\"presentd $VERSION\"/" "$m"
    gzip -9nf "$m"
done
DOC=$STAGE/usr/share/doc/presentd-wayland
install -d -m 0755 "$DOC"
install -m 0644 "$HERE/copyright" "$DOC/copyright"
{
    printf 'presentd-wayland (%s) bookworm; urgency=medium\n\n' "$VERSION"
    printf '  * Built by make deb-wayland from %s.\n\n' "$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo 'a source tree')"
    printf ' -- presentd maintainers <maintainers@users.noreply.a-seed-8edc040f.example>  %s\n' \
        "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$DOC/changelog.gz"
chmod 0644 "$DOC/changelog.gz"

install -d -m 0755 "$STAGE/DEBIAN"
(cd "$STAGE" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs md5sum) > "$STAGE/DEBIAN/md5sums"
chmod 0644 "$STAGE/DEBIAN/md5sums"

scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/debian"; : > "$scratch/debian/control"
DEPENDS=$(cd "$scratch" && dpkg-shlibdeps -O "$STAGE/usr/bin/presentd-wayland" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$DEPENDS" ] || { echo "build-deb-wayland: could not compute Depends (is dpkg-dev installed?)" >&2; exit 1; }
SIZE=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s|@VERSION@|$VERSION|g" -e "s|@ARCH@|$ARCH|" -e "s|@SIZE@|$SIZE|" -e "s|@DEPENDS@|$DEPENDS|" \
    "$HERE/control-wayland.in" > "$STAGE/DEBIAN/control"
chmod 0644 "$STAGE/DEBIAN/control"

find "$STAGE" -type d -exec chmod 0755 {} +
DEB=$OUT/presentd-wayland_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
echo "built $DEB ($(du -h "$DEB" | cut -f1); Depends: $DEPENDS)"
if command -v lintian >/dev/null; then
    if ! out=$(lintian --fail-on error,warning "$DEB" 2>&1); then
        echo "$out" >&2; echo "build-deb-wayland: lintian reports errors or warnings" >&2; exit 1
    fi
    echo "lintian: no errors or warnings"
else
    echo "lintian: not installed, not checked (apt-get install lintian)"
fi
