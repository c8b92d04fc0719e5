#!/usr/bin/env bash
# test-systemd: the units, the installation and the man pages, as an operator gets them.
#  - `make install` into a scratch prefix (no DESTDIR, so ExecStart= points at a real
#    binary) and into a DESTDIR: every file lands where it should;
#  - `systemd-analyze verify` prints nothing for any unit (it exits 0 on unknown keys, so
#    any output at all fails the test); `systemd-analyze security --offline=true` rates
#    the system service 1.0 or lower;
#  - systemd-sysusers accepts the sysusers file and creates the presentd user and group;
#  - the man pages format without a warning and mention every option of --help;
#  - presentd links no libsystemd, and refuses a passed socket it cannot serve on, saying why.
# Usage: Tests/systemd/check-units.sh [MAKE]   (run from the repository root)
set -euo pipefail
MAKE=${1:-make}
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d /tmp/presentd-units-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# 1. Installing into a prefix.
prefix=$scratch/prefix
$MAKE --no-print-directory install INSTALL_CONFIG=debug PREFIX="$prefix" SYSCONFDIR="$prefix/etc" >/dev/null
for f in bin/presentd bin/presentctl lib/systemd/system/presentd.socket lib/systemd/system/presentd.service \
         lib/systemd/user/presentd.socket lib/systemd/user/presentd.service etc/sysusers.d/presentd.conf \
         share/man/man8/presentd.8 share/man/man1/presentctl.1 share/doc/presentd/presentd.example.json \
         etc/presentd/presentd.json; do
    [ -e "$prefix/$f" ] || fail "make install PREFIX=… did not install $f"
done
grep -qx "ExecStart=$prefix/bin/presentd" "$prefix/lib/systemd/system/presentd.service" \
    || fail "the installed service does not start $prefix/bin/presentd"
pass "make install PREFIX=$prefix"

# 2. Installing into a DESTDIR (packaging): paths inside the files are the final ones; an
#    existing configuration is kept.
dest=$scratch/dest
$MAKE --no-print-directory install INSTALL_CONFIG=debug DESTDIR="$dest" PREFIX=/usr >/dev/null
for f in usr/bin/presentd usr/bin/presentctl usr/lib/systemd/system/presentd.socket \
         usr/lib/systemd/user/presentd.service usr/lib/sysusers.d/presentd.conf \
         usr/share/man/man8/presentd.8 etc/presentd/presentd.json; do
    [ -e "$dest/$f" ] || fail "make install DESTDIR=… PREFIX=/usr did not install $f"
done
grep -qx "ExecStart=/usr/bin/presentd" "$dest/usr/lib/systemd/system/presentd.service" \
    || fail "DESTDIR leaked into ExecStart="
echo '{"fps": 30}' > "$dest/etc/presentd/presentd.json"
$MAKE --no-print-directory install INSTALL_CONFIG=debug DESTDIR="$dest" PREFIX=/usr >/dev/null
grep -q '"fps": 30' "$dest/etc/presentd/presentd.json" || fail "make install overwrote an existing configuration"
pass "make install DESTDIR=$dest PREFIX=/usr"

# 3. systemd-analyze verify: not a single line of output.
export MANPATH=$prefix/share/man
units=$prefix/lib/systemd/system
out=$(systemd-analyze verify "$units/presentd.socket" "$units/presentd.service" 2>&1) \
    || fail "systemd-analyze verify (system units) failed"
[ -z "$out" ] && pass "systemd-analyze verify: system units" || fail "systemd-analyze verify (system units) said: $out"
mkdir -m 0700 "$scratch/runtime"
user_units=$prefix/lib/systemd/user
out=$(XDG_RUNTIME_DIR=$scratch/runtime systemd-analyze --user verify \
      "$user_units/presentd.socket" "$user_units/presentd.service" 2>&1) \
    || fail "systemd-analyze --user verify failed"
[ -z "$out" ] && pass "systemd-analyze verify: user units" || fail "systemd-analyze --user verify said: $out"

# 4. systemd-analyze security: SAFE, 1.0 or lower (--threshold takes a 0-100 scale).
report=$(systemd-analyze security --offline=true --threshold=10 "$units/presentd.service" 2>&1) \
    || fail "systemd-analyze security rates presentd.service above 1.0"
score=$(printf '%s\n' "$report" | sed -n 's/.*Overall exposure level for presentd.service: \([0-9.]*\).*/\1/p')
if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 1.0) }'; then
    pass "systemd-analyze security presentd.service: $score"
else
    fail "systemd-analyze security presentd.service: ${score:-no score}"; printf '%s\n' "$report" | grep '✗' >&2 || true
fi

# 5. systemd-sysusers creates the user and the socket's group.
sysroot=$scratch/sysroot
mkdir -p "$sysroot/etc"
systemd-sysusers --root="$sysroot" "$prefix/etc/sysusers.d/presentd.conf" >/dev/null 2>&1 \
    || fail "systemd-sysusers rejected presentd.conf"
grep -q '^presentd:' "$sysroot/etc/passwd" && grep -q '^presentd:' "$sysroot/etc/group" \
    && pass "systemd-sysusers: presentd user and group" || fail "systemd-sysusers did not create presentd"

# 6. Man pages: no formatter warning, and every option of --help documented.
for page in "$prefix/share/man/man8/presentd.8" "$prefix/share/man/man1/presentctl.1"; do
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "$(basename "$page"): $warnings"
done
check_options() {  # PROGRAM PAGE
    local missing=""
    for option in $("$prefix/bin/$1" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "$(printf '%s' "$option" | sed 's/-/\\-/g')" "$2" || missing="$missing $option"
    done
    [ -z "$missing" ] && pass "$(basename "$2") documents every option of $1 --help" \
        || fail "$(basename "$2") does not document:$missing"
}
check_options presentd "$prefix/share/man/man8/presentd.8"
check_options presentctl "$prefix/share/man/man1/presentctl.1"

# 7. systemd's protocols are presentd's own (Sources/PresentServer/Systemd/SDDaemon.swift):
#    the installed daemon links no libsystemd (nor its crypto and compression libraries),
#    and says what is wrong with a passed fd it cannot serve on (here /dev/null as fd 3).
needed=$(objdump -p "$prefix/bin/presentd" | awk '$1 == "NEEDED" { print $2 }' | paste -sd' ' -)
case " $needed " in
    *" libsystemd.so"*) fail "presentd links libsystemd: $needed" ;;
    *) pass "presentd links no libsystemd ($needed)" ;;
esac
# (sh's pid is the one presentd execs into, so LISTEN_PID is presentd's, as systemd sets it.)
refusal=$(timeout 60 sh -c 'exec env LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=presentd "$0" --socket "$1" 3</dev/null' \
          "$prefix/bin/presentd" "$scratch/unused.sock" 2>&1) && status=0 || status=$?
case "$refusal" in
    *"fd 3 from systemd is not a listening Unix stream socket (it is not a socket)"*)
        [ "$status" != 0 ] && [ "$status" != 124 ] && pass "a passed fd that is not a socket is refused, saying so (status $status)" \
            || fail "a passed fd that is not a socket: status $status" ;;
    *) fail "a passed fd that is not a socket (status $status): $refusal" ;;
esac

[ "$failures" -eq 0 ] || { echo "test-systemd: $failures failure(s)" >&2; exit 1; }
echo "test-systemd: all checks passed"
