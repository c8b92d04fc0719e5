# Sourced by build-deb.sh and build-deb-wayland.sh (after `set -euo pipefail`), with the
# staging tree and the output directory as $1 and $2: what both packages take from one
# place — the paths, VERSION (presentdVersion in Sources/PresentProtocol/Version.swift, what
# `presentd --version` and hello say, plus $DEB_VERSION_SUFFIX such as +rebuild1), ARCH, and
# SOURCE_DATE_EPOCH (the last commit's time: file times and changelog dates reproducible).
mkdir -p "$2"
STAGE=$(readlink -f "$1"); OUT=$(readlink -f "$2")
HERE=$(dirname "$(readlink -f "$0")")
TOP=$(readlink -f "$HERE/../..")

VERSION=$(sed -n 's/^public let presentdVersion = "\(.*\)"$/\1/p' "$TOP/Sources/PresentProtocol/Version.swift")
[ -n "$VERSION" ] || { echo "$(basename "$0"): presentdVersion not found in Sources/PresentProtocol/Version.swift" >&2; exit 1; }
VERSION=$VERSION${DEB_VERSION_SUFFIX:-}
ARCH=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$TOP" log -1 --format=%ct 2>/dev/null || date +%s)}
