#!/usr/bin/env bash
# test-deploy.sh — presentd's Debian package under a real systemd as PID 1 (make test-deploy).
#
# Boots a pristine Debian 12 (no Swift) with Tests/deploy/sysbox.sh, installs the package
# `make deb` builds, and checks what an operator relies on: socket activation and its
# permissions, the sandbox, readiness and status, Restart= after kill -9 with the stack and
# its waiting clients surviving, the watchdog, reload, the user-session units, an upgrade,
# remove and purge. Prints one line per check with what it observed, and the figures
# (activation, restart, watchdog, reload, upgrade times).
#
# Exit status: 0 every check passed; 1 a check failed; 77 this machine cannot boot systemd
# in a namespace (not root, no namespaces, no Debian root and no way to make one), said in
# one line. The Makefile reports 77 as skipped.
set -uo pipefail
HERE=$(dirname "$(readlink -f "$0")")
TOP=$(readlink -f "$HERE/../..")
SYSBOX=$HERE/sysbox.sh
MAKE=${MAKE:-make}
DEADLINE=${DEPLOY_DEADLINE:-60}   # seconds any awaited condition gets: generous, a loaded machine is slow
SOCK=/run/presentd/presentd.sock

if ! why=$("$SYSBOX" check); then
    echo "test-deploy: skipped: cannot boot systemd as PID 1 here: $why"
    exit 77
fi
# The Debian root first (once per machine, cached): a mirror that fails the download is a
# skip with its reason (77), as above; anything else is a failure.
rc=0; "$SYSBOX" root || rc=$?
if [ $rc = 77 ]; then echo "test-deploy: skipped (the Debian root could not be made)"; exit 77; fi
[ $rc = 0 ] || { echo "test-deploy: FAILED: building the Debian root (status $rc)"; exit 1; }

failures=0 checks=0
ok()   { checks=$((checks + 1)); printf '  ok    %s\n' "$*"; }
bad()  { checks=$((checks + 1)); failures=$((failures + 1)); printf '  FAIL  %s\n' "$*"; }
note() { printf '        %s\n' "$*"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# --- the packages: this tree's, and a rebuild with a higher version to upgrade to ------------
echo "test-deploy: building the packages"
$MAKE -C "$TOP" --no-print-directory deb >/tmp/test-deploy-deb.$$ 2>&1 || { cat /tmp/test-deploy-deb.$$; exit 1; }
DEB=$(cat "$TOP/.build/deb/root.deb-path")
$MAKE -C "$TOP" --no-print-directory deb DEB_OUT=.build/deb/upgrade DEB_VERSION_SUFFIX=+upgrade1 DEB_LINTIAN=no \
    >>/tmp/test-deploy-deb.$$ 2>&1 || { cat /tmp/test-deploy-deb.$$; exit 1; }
DEB2=$(cat "$TOP/.build/deb/root.deb-path")
rm -f /tmp/test-deploy-deb.$$
echo "test-deploy: $(basename "$DEB"), upgrade to $(basename "$DEB2")"
# The clients that wait across restarts: C (built here against the box's libjson-c5) and Python.
CBIN=$TOP/.build/deploy
mkdir -p "$CBIN"
cc -O2 -std=c11 -I"$TOP/Clients/c" $(pkg-config --cflags json-c) -o "$CBIN/c-waiter" "$HERE/c-waiter.c" \
    "$TOP/Clients/c/presentd.c" $(pkg-config --libs json-c) -lm || exit 1

# --- the box ---------------------------------------------------------------------------------
"$SYSBOX" root || exit 1
RUN=$(mktemp -d "${SYSBOX_CACHE:-/var/tmp/presentd-sysbox}/run-XXXXXX")
trap '"$SYSBOX" stop "$RUN"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$RUN/upper/root/deploy/python"
cp "$DEB" "$DEB2" "$CBIN/c-waiter" "$HERE/waiter.py" "$RUN/upper/root/deploy/"
cp -r "$TOP/Clients/python/src/presentd" "$RUN/upper/root/deploy/python/"
chmod -R a+rX "$RUN/upper/root/deploy"; chmod 0755 "$RUN/upper/root"
"$SYSBOX" boot "$RUN" || exit 1
box() { "$SYSBOX" exec "$RUN" "$@"; }
# as a login user of the box: the default socket (/run/presentd), the Python client on the path
as() { local u=$1; shift; box runuser -u "$u" -- env PYTHONPATH=/root/deploy/python "$@"; }
# wait_for WHAT CMD...: until CMD succeeds, at most $DEADLINE s; false (saying WHAT) after
wait_for() {
    local what=$1 t=$SECONDS; shift
    until "$@" >/dev/null 2>&1; do
        if [ $((SECONDS - t)) -ge "$DEADLINE" ]; then note "waited $DEADLINE s for $what"; return 1; fi
        sleep 0.05
    done
}
main_pid() { box systemctl show -p MainPID --value presentd.service; }
status_text() { box systemctl show -p StatusText --value presentd.service; }
# the stack's entry ids, bottom to top; and whether each has a real owner (not a stand-in)
stack_ids() { as alice presentctl stack | box python3 -c 'import json,sys; print(" ".join(e["id"] for e in json.load(sys.stdin)["entries"]))'; }
all_owned() { as alice presentctl stack | box python3 -c '
import json, sys
e = json.load(sys.stdin)["entries"]
sys.exit(0 if e and all(x["owner"] < 2**62 for x in e) else 1)'; }
# every entry on screen: one still queued at a restart presents again, with its transition
all_presented() { as alice presentctl stack | box python3 -c '
import json, sys
e = json.load(sys.stdin)["entries"]
sys.exit(0 if e and all(x["state"] == "presented" for x in e) else 1)'; }
saved_ids() { box sh -c 'cat /run/presentd/state/presentd-state.json 2>/dev/null' | box python3 -c '
import json, sys
try: print(" ".join(sorted(e["id"] for e in json.load(sys.stdin)["entries"])))
except Exception: print("")'; }
saved_is() { [ "$(saved_ids)" = "$1" ]; }
stack_has() { [ "$(stack_ids | tr ' ' '\n' | sort | paste -sd' ')" = "$1" ]; }
# start_waiters: each waits in the background as alice; /tmp/w-NAME.out and .rc when it ends
start_waiter() {
    local name=$1; shift
    box bash -c "rm -f /tmp/w-$name.*; (runuser -u alice -- env PYTHONPATH=/root/deploy/python $(printf '%q ' "$@") \
        >/tmp/w-$name.out 2>/tmp/w-$name.err; echo \$? >/tmp/w-$name.rc) </dev/null >/dev/null 2>&1 &"
}
waiter_done() { box test -s "/tmp/w-$1.rc"; }
waiter_result() { echo "rc=$(box cat /tmp/w-$1.rc) out=$(box cat /tmp/w-$1.out | paste -sd'|') err=$(box cat /tmp/w-$1.err | head -3 | paste -sd'|')"; }
answer_all() {   # activate "yes" on every entry, top first (a dismissal takes what is above it), once all are on screen
    local id
    wait_for "every entry to be on screen before it is answered" all_presented || return 1
    for id in $(stack_ids | tr ' ' '\n' | tac); do as alice presentctl activate "$id" yes >/dev/null || return 1; done
}

echo "test-deploy: checks (systemd $(box dpkg-query -W -f '${Version}' systemd), no Swift in the box: $(box sh -c 'command -v swift || echo none'))"

# 1. install
box useradd -m -U -s /bin/bash alice; box useradd -m -U -s /bin/bash bob
t=$(date +%s%N)
if out=$(box env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/root/deploy/$(basename "$DEB")" 2>&1); then
    ok "install: apt-get install ./$(basename "$DEB") in $(ms_since "$t") ms; $(box dpkg-query -W -f '${Package} ${Version} ${Status}' presentd); user $(box id presentd)"
else bad "install: apt-get failed: $(echo "$out" | tail -5)"; exit 1; fi

# 2. the socket
st=$(box stat -c '%F %U:%G %a' $SOCK 2>&1)
if [ "$(box systemctl is-active presentd.socket)" = active ] && [ "$st" = "socket root:presentd 660" ] &&
   [ "$(box systemctl is-enabled presentd.socket)" = enabled ] && [ "$(box systemctl is-active presentd.service)" = inactive ]; then
    ok "presentd.socket listens on $SOCK ($st), enabled; presentd.service not started yet"
else bad "socket: $(box systemctl is-active presentd.socket) $(box systemctl is-enabled presentd.socket), $SOCK: $st, service $(box systemctl is-active presentd.service)"; fi

# 3. permissions, and activation by the first connection
box usermod -aG presentd alice
t=$(date +%s%N)
if out=$(as alice presentctl hello 2>&1); then
    ready=$(( ($(box systemctl show -p ActiveEnterTimestampMonotonic --value presentd.service) -
               $(box systemctl show -p ExecMainStartTimestampMonotonic --value presentd.service)) / 1000 ))
    ok "alice (group presentd) connects: the first connection started presentd.service (exec to READY=1: $ready ms), hello answered in $(ms_since "$t") ms: $(echo "$out" | cut -c1-60)…"
else bad "alice cannot connect: $out"; fi
out=$(as bob presentctl hello 2>&1); rc=$?
if [ $rc = 3 ] && [[ $out == *"Permission denied"* ]] && [[ $out == *'group "presentd"'* ]]; then
    ok "bob (not in the group) is refused, exit 3: $(echo "$out" | paste -sd' ')"
else bad "bob: exit $rc: $out"; fi

# 4. the sandbox
pid=$(main_pid)
status=$(box cat /proc/$pid/status 2>/dev/null)
nnp=$(awk '/^NoNewPrivs:/ {print $2}' <<<"$status"); sec=$(awk '/^Seccomp:/ {print $2}' <<<"$status")
uid=$(awk '/^Uid:/ {print $2}' <<<"$status"); cap=$(awk '/^CapEff:/ {print $2}' <<<"$status")
user=$(box ps -o user= -p "$pid")
etc=$(box nsenter -t "$pid" -m -S "$uid" -G "$(box id -g presentd)" -- touch /etc/presentd-probe 2>&1)
home=$(box nsenter -t "$pid" -m -- ls -A /home 2>&1)
if [ "$nnp" = 1 ] && [ "$sec" = 2 ] && [ "$user" = presentd ] && [ "$cap" = 0000000000000000 ] &&
   [[ $etc == *"Read-only file system"* ]] && [ -z "$home" ] && [ -n "$(box ls /home)" ]; then
    ok "sandbox: pid $pid runs as $user, NoNewPrivs $nnp, Seccomp $sec, CapEff $cap; writing /etc: ${etc##*: }; /home in its view: empty (outside: $(box ls /home | paste -sd' '))"
else bad "sandbox: user $user NoNewPrivs '$nnp' Seccomp '$sec' CapEff '$cap'; /etc: $etc; /home: '$home'"; fi
note "limits the box could not raise (no CAP_SYS_RESOURCE here: LimitNOFILE= above it and OOMScoreAdjust= are not applied): open files $(box awk '/^Max open files/ {print $4 ":" $5}' /proc/$pid/limits), oom_score_adj $(box cat /proc/$pid/oom_score_adj); PID 1 has CapBnd $(box awk '/^CapBnd:/ {print $2}' /proc/1/status)"

# 5. readiness and status
line=$(box systemctl status presentd.service --no-pager 2>&1 | grep -E '^ *Status:' | sed 's/^ *//')
sub=$(box systemctl show -p SubState --value presentd.service)
ready=$(box journalctl -u presentd.service --no-pager -o cat | grep -c '^Started presentd.service')
if [ "$sub" = running ] && [ -n "$line" ] && [ "$ready" -ge 1 ]; then
    ok "READY=1: $sub, \"Started presentd.service\" logged once ready; systemctl status shows $line"
else bad "readiness: SubState $sub, status line '$line', Started lines $ready"; fi

# 6. kill -9 while four clients wait (presentctl, Python sync, Python asyncio with two, C)
start_waiter ctl presentctl present --id ctl --title "Still there?" --action yes:Yes:default --action no:No:cancel --wait
start_waiter sync python3 /root/deploy/waiter.py sync py-sync
start_waiter aio python3 /root/deploy/waiter.py aio py-aio1 py-aio2
start_waiter c /root/deploy/c-waiter c-1
want="c-1 ctl py-aio1 py-aio2 py-sync"
if wait_for "five entries from four clients, saved" saved_is "$want" && stack_has "$want"; then
    old=$(main_pid); t=$(date +%s%N)
    box kill -9 "$old"
    if wait_for "a new presentd" sh -c "[ \"\$($SYSBOX exec $RUN systemctl show -p MainPID --value presentd.service)\" != $old ] && [ \"\$($SYSBOX exec $RUN systemctl show -p MainPID --value presentd.service)\" != 0 ]" &&
       wait_for "it to answer" as alice presentctl ping; then
        restart=$(ms_since "$t")
        back=$(stack_ids)
        if wait_for "every waiting client to resume its entry" all_owned; then
            resumed=$(ms_since "$t")
            ok "kill -9 of pid $old: restarted as pid $(main_pid) and serving after $restart ms; stack back: $back; all owners resumed after $resumed ms ($(box journalctl -u presentd.service --no-pager -o cat | grep -m1 'restored'))"
        else bad "kill -9: the owners did not resume: stack $(as alice presentctl stack)"; fi
    else bad "kill -9: no restart: $(box systemctl status presentd.service --no-pager | head -5)"; fi
    answer_all
    results=""; okw=1
    for w in ctl sync aio c; do
        wait_for "waiter $w to get its answer" waiter_done "$w" || okw=0
        r=$(waiter_result "$w"); results+="$w: $r; "
        [[ $r == rc=0* ]] && [[ $r == *yes* ]] || okw=0
    done
    gone=$(box journalctl -u presentd.service --no-pager -o cat | grep -c ownerGone)
    if [ $okw = 1 ] && [ "$gone" = 0 ]; then ok "the clients kept waiting across the restart and got their answers: $results"
    else bad "waiters after kill -9: $results ownerGone lines: $gone"; fi
else bad "kill -9: the waiters' entries never appeared: saved '$(saved_ids)', stack '$(stack_ids)'"; fi

# 7. the watchdog: SIGSTOP, no more pings
start_waiter wd presentctl present --id wd --title "Watchdog?" --action yes:Yes --wait
if wait_for "entry wd saved" saved_is wd; then
    old=$(main_pid); t=$(date +%s%N)
    box kill -STOP "$old"
    if DEADLINE=90 wait_for "the watchdog to replace pid $old" sh -c "p=\$($SYSBOX exec $RUN systemctl show -p MainPID --value presentd.service); [ \"\$p\" != $old ] && [ \"\$p\" != 0 ]" &&
       wait_for "it to answer" as alice presentctl ping && wait_for "wd to be resumed" all_owned; then
        took=$(ms_since "$t")
        why=$(box journalctl -u presentd.service --no-pager -o cat | grep -m1 -i 'watchdog timeout')
        at=$(box journalctl -u presentd.service --no-pager -o short-unix | grep -m1 -i 'watchdog timeout' | cut -d' ' -f1)
        fired=$(awk -v at="$at" -v t="$t" 'BEGIN { printf "%d", at * 1000 - t / 1000000 }')
        answer_all
        wait_for "waiter wd" waiter_done wd
        r=$(waiter_result wd)
        if [ -n "$why" ] && [[ $r == rc=0* ]]; then
            ok "SIGSTOP of pid $old: \"$why\" $fired ms after the stop (WatchdogSec=10s; pings every 5 s); back as pid $(main_pid), serving, its waiter resumed $took ms after the stop (RestartSec=1s); the waiter got its answer: $r"
        else bad "watchdog: journal '$why', waiter $r"; fi
    else bad "watchdog: no restart: $(box systemctl status presentd.service --no-pager | head -8)"; box kill -CONT "$old"; fi
else bad "watchdog: entry wd never saved"; fi

# 8. reload: a changed fps, no connection dropped
box sh -c 'rm -f /tmp/watch.out; (runuser -u alice -- presentctl watch lifecycle >/tmp/watch.out 2>&1 &) </dev/null >/dev/null 2>&1'
wait_for "the watcher to subscribe" box test -s /tmp/watch.out
pid=$(main_pid); fps0=$(as alice presentctl hello | box python3 -c 'import json,sys; print(json.load(sys.stdin)["fps"])')
box sed -i 's/"fps": 60,/"fps": 30,/' /etc/presentd/presentd.json
t=$(date +%s%N)
box systemctl reload presentd.service; rl=$(ms_since "$t")
fps1=$(as alice presentctl hello | box python3 -c 'import json,sys; print(json.load(sys.stdin)["fps"])')
as alice presentctl present --id after-reload --style alert >/dev/null
if wait_for "the watcher to see after-reload" box grep -q after-reload /tmp/watch.out && [ "$fps0" = 60 ] && [ "$fps1" = 30 ] &&
   [ "$(main_pid)" = "$pid" ] && ! box grep -q '"shutdown"\|"closing"' /tmp/watch.out; then
    ok "reload: fps $fps0 → $fps1, systemctl reload returned in $rl ms, same pid $pid, the watcher's connection stayed (it saw after-reload); $(box journalctl -u presentd.service --no-pager -o cat | grep -m1 'configuration reloaded')"
else bad "reload: fps $fps0 → $fps1 in $rl ms, pid $pid → $(main_pid), watcher: $(box cat /tmp/watch.out | tail -3)"; fi
as alice presentctl dismiss-all --no-animation >/dev/null
box pkill -u alice -f 'presentctl watch'

# 9. the user-session units under systemctl --user
auid=$(box id -u alice)
box loginctl enable-linger alice
if wait_for "alice's user manager" box test -S /run/user/$auid/systemd/private; then
    uctl() { as alice env XDG_RUNTIME_DIR=/run/user/$auid systemctl --user "$@"; }
    uctl enable --now presentd.socket >/dev/null 2>&1
    usock=/run/user/$auid/presentd/presentd.sock
    out=$(as alice env XDG_RUNTIME_DIR=/run/user/$auid presentctl hello 2>&1)
    upid=$(uctl show -p MainPID --value presentd.service)
    ust=$(box cat /proc/$upid/status 2>/dev/null)
    if [ "$(uctl is-active presentd.service)" = active ] && box test -S "$usock" &&
       [ "$(awk '/^NoNewPrivs:/ {print $2}' <<<"$ust")" = 1 ] && [ "$(box ps -o user= -p "$upid")" = alice ]; then
        ok "user session: systemctl --user enable --now presentd.socket; $usock ($(box stat -c '%U %a' "$usock")) started presentd as alice (pid $upid, NoNewPrivs 1, Seccomp $(awk '/^Seccomp:/ {print $2}' <<<"$ust")); $(uctl status presentd.service --no-pager | grep -E '^ *Status:' | sed 's/^ *//')"
    else bad "user session: hello: $out; service $(uctl is-active presentd.service); $(uctl status presentd.service --no-pager 2>&1 | tail -6)"; fi
    uctl disable --now presentd.socket presentd.service >/dev/null 2>&1
else bad "user session: no user manager for alice: $(box systemctl status user@$auid.service --no-pager | tail -5)"; fi

# 10. upgrade with clients waiting
start_waiter up presentctl present --id up --title "Upgrade?" --action yes:Yes --wait
start_waiter upsync python3 /root/deploy/waiter.py sync up-sync
if wait_for "entries up and up-sync saved" saved_is "up up-sync"; then
    old=$(main_pid); sockt=$(box systemctl show -p ActiveEnterTimestampMonotonic --value presentd.socket); t=$(date +%s%N)
    out=$(box env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Options::=--force-confdef \
          -o Dpkg::Options::=--force-confold "/root/deploy/$(basename "$DEB2")" 2>&1); up=$(ms_since "$t")
    if wait_for "the upgraded daemon to serve" as alice presentctl ping && wait_for "up and up-sync to be resumed" all_owned; then
        new=$(main_pid); stack=$(stack_ids)
        answer_all; wait_for "waiter up" waiter_done up; wait_for "waiter up-sync" waiter_done upsync
        r1=$(waiter_result up); r2=$(waiter_result upsync)
        if [ "$new" != "$old" ] && [[ $r1 == rc=0* ]] && [[ $r2 == rc=0* ]] && [[ $(box dpkg-query -W -f '${Version}' presentd) == *+upgrade1 ]] &&
           [ "$(box systemctl show -p ActiveEnterTimestampMonotonic --value presentd.socket)" = "$sockt" ] &&
           [ "$(box python3 -c 'import json; print(json.load(open("/etc/presentd/presentd.json"))["fps"])')" = 30 ]; then
            ok "upgrade to $(box dpkg-query -W -f '${Version}' presentd) in $up ms: daemon restarted (pid $old → $new), socket left open, stack kept ($stack), the waiters got their answers ($r1; $r2), the edited conffile kept (fps 30)"
        else bad "upgrade: pid $old → $new, waiters: $r1; $r2; version $(box dpkg-query -W -f '${Version}' presentd); $(echo "$out" | tail -3)"; fi
    else bad "upgrade: not serving or not resumed: $(echo "$out" | tail -5)"; fi
else bad "upgrade: the waiters' entries never appeared"; fi

# 11. remove, 12. purge
out=$(box env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q presentd 2>&1)
svc=$(box systemctl is-active presentd.service); sk=$(box systemctl is-active presentd.socket)
if [ "$svc" != active ] && [ "$sk" != active ] && ! box test -e $SOCK && box test -f /etc/presentd/presentd.json &&
   [ "$(box dpkg-query -W -f '${db:Status-Abbrev}' presentd)" = "rc " ]; then
    ok "apt-get remove: service $svc, socket $sk, $SOCK gone, status rc, /etc/presentd/presentd.json kept"
else bad "remove: service $svc, socket $sk, socket file $(box ls -l $SOCK 2>&1), $(box dpkg-query -W -f '${db:Status-Abbrev}' presentd 2>&1); $(echo "$out" | tail -3)"; fi
out=$(box env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q presentd 2>&1)
if ! box test -e /etc/presentd && ! box getent passwd presentd >/dev/null && ! box getent group presentd >/dev/null &&
   ! box test -e /etc/systemd/system/sockets.target.wants/presentd.socket && [ -z "$(box dpkg-query -W -f '${Status}' presentd 2>/dev/null)" ]; then
    ok "apt-get purge: /etc/presentd gone, user and group presentd gone (alice is in: $(box id -Gn alice)), no enablement link left"
else bad "purge: $(box ls -la /etc/presentd 2>&1 | head -3); passwd: $(box getent passwd presentd); group: $(box getent group presentd); $(echo "$out" | tail -3)"; fi

failed_units=$(box systemctl --failed --no-legend --plain | awk '{print $1}' | paste -sd' ')
[ -n "$failed_units" ] && note "failed units in the box at the end: $failed_units"
if [ "$failures" = 0 ]; then echo "test-deploy: all $checks checks passed"; exit 0; fi
echo "test-deploy: $failures of $checks checks failed"
box journalctl -u presentd.service --no-pager -o short-monotonic | tail -40 | sed 's/^/  journal| /'
exit 1
