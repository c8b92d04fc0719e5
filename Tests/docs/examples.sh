#!/bin/sh
# Builds presentd, then rewrites the examples of docs/PROTOCOL.md with what it answers
# (`Tests/docs/examples.sh --check`: only checks that they are up to date; exit 1 if not).
set -e
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
"$SWIFT" build --product presentd >/dev/null
PRESENTD="$("$SWIFT" build --show-bin-path)/presentd" exec python3 Tests/docs/examples.py "$@"
