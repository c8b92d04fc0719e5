#!/usr/bin/env bash
# sysbox.sh — a throwaway Debian 12 machine with systemd as PID 1, for make test-deploy.
#
#   sysbox.sh check            can this machine boot one? prints one line why not (exit 77)
#   sysbox.sh root             build the cached root if missing (debootstrap; needs network once)
#   sysbox.sh boot RUN         boot a box over the cached root; RUN is a new directory
#                              (upper/, work/, root/, pid1 with PID 1's host pid)
#   sysbox.sh exec RUN CMD...  run CMD as root inside the box (nsenter into its namespaces)
#   sysbox.sh stop RUN         power it off (SIGKILL after 15 s), unmount, remove RUN
#
# How a box is made: the root is debootstrap --variant=minbase of bookworm with systemd and
# the packages presentd depends on, cached in $SYSBOX_CACHE (default /var/tmp/presentd-sysbox)
# and never changed by a box: each box is an overlay over it. `unshare -fpmui` gives systemd
# its own PID, mount, UTS and IPC namespaces; it moves into cgroups of its own below ours
# (then unshare --cgroup, so it sees them as the root), gets a private /proc, a read-only
# /sys, a small /dev, tmpfs /run and /tmp, and is exec'd as PID 1 after pivot_root.
set -uo pipefail
SELF=$(readlink -f "$0")
SYSBOX_CACHE=${SYSBOX_CACHE:-/var/tmp/presentd-sysbox}
SUITE=bookworm
MIRROR=${SYSBOX_MIRROR:-http://deb.debian.org/debian}
# The root: systemd as init (with libpam-systemd, as systemd recommends: user sessions get
# XDG_RUNTIME_DIR), what presentd links (libuv1, libjson-c5; libc6 comes with systemd),
# python3 for the Python client, procps for ps/pgrep.
INCLUDE=systemd,systemd-sysv,dbus,libpam-systemd,libuv1,libjson-c5,python3,procps
ROOT_TAG="$SUITE minbase $INCLUDE v1"
BASE=$SYSBOX_CACHE/root-$SUITE
BOX_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# PID 1 drops the capabilities that act on the whole host.
CAP_DROP=-sys_module,-sys_rawio,-sys_time,-wake_alarm,-syslog,-audit_control,-audit_read,-mac_admin,-mac_override,-block_suspend
CG_WANT=" name=systemd cpu cpuacct blkio memory devices pids "

log() { printf '[sysbox %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }

# Are the cgroup hierarchies writable (the box gets cgroups of its own below ours)?
cg_probe() { awk '$3 ~ /^cgroup2?$/ && $4 ~ /(^|,)rw(,|$)/ { f = 1 } END { exit !f }' /proc/self/mounts; }

# Can we mount an overlay there (in a mount namespace of its own, gone with it)?
overlay_probe() {
    local p
    mkdir -p "$SYSBOX_CACHE" 2>/dev/null || return 1
    p=$(mktemp -d "$SYSBOX_CACHE/probe-XXXXXX") || return 1
    mkdir "$p/l" "$p/u" "$p/w" "$p/m"
    unshare -m --propagation private mount -t overlay overlay -o "lowerdir=$p/l,upperdir=$p/u,workdir=$p/w" "$p/m" 2>/dev/null
    local rc=$?
    rm -rf "$p"
    return $rc
}

# Whether the mirror answers: a TCP connection to its host (the port, 80 unless the URL
# names one), else debootstrap's own look at the suite. Generous: a loaded machine is slow.
mirror_reachable() {
    local hostport=${MIRROR#*://}
    hostport=${hostport%%/*}
    case $hostport in *:*) ;; *) hostport="$hostport:80" ;; esac
    timeout 30 bash -c "exec 3<>/dev/tcp/${hostport%:*}/${hostport##*:}" 2>/dev/null ||
        timeout 120 debootstrap --print-debs --variant=minbase "$SUITE" /tmp/.sysbox-probe-$$ "$MIRROR" >/dev/null 2>&1
}

# check: every reason this machine cannot boot a box, as one line, exit 77
check() {
    local why=
    if [ "$(id -u)" != 0 ]; then why="not root (needs mount, namespaces and cgroups)"
    elif ! unshare -fpmui --propagation private true 2>/dev/null; then why="no PID/mount namespaces here (unshare -fpmui failed)"
    elif [ ! -d /sys/fs/cgroup ] || ! awk '$3 ~ /^cgroup2?$/ { f = 1 } END { exit !f }' /proc/self/mounts; then why="no cgroup file system mounted"
    elif ! cg_probe; then why="the cgroup file systems are read-only here"
    elif ! overlay_probe; then why="cannot mount an overlay in $SYSBOX_CACHE (the box's root is one)"
    elif [ ! -f "$BASE/.sysbox-root" ] || [ "$(cat "$BASE/.sysbox-root")" != "$ROOT_TAG" ]; then
        if ! command -v debootstrap >/dev/null; then why="no cached Debian root in $BASE and no debootstrap to make one (apt-get install debootstrap)"
        elif ! mirror_reachable; then
            why="no cached Debian root in $BASE and $MIRROR unreachable"
        fi
    fi
    rm -rf /tmp/.sysbox-probe-$$
    for c in unshare nsenter setpriv pivot_root mount; do
        [ -n "$why" ] || command -v $c >/dev/null || why="$c missing"
    done
    if [ -n "$why" ]; then echo "$why"; return 77; fi
}

inroot() { chroot "$1" /usr/bin/env -i PATH=$BOX_PATH HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "$2" </dev/null; }

# root: debootstrap into a new directory, then swap it in
build_root() {
    if [ -f "$BASE/.sysbox-root" ] && [ "$(cat "$BASE/.sysbox-root")" = "$ROOT_TAG" ]; then return 0; fi
    command -v debootstrap >/dev/null || die "debootstrap missing (apt-get install debootstrap)"
    mkdir -p "$SYSBOX_CACHE"
    local new t0=$SECONDS
    new=$(mktemp -d "$BASE.new.XXXXXX")
    log "building the cached root $BASE: debootstrap --variant=minbase --include=$INCLUDE $SUITE (once; about a minute)"
    if ! debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$new" "$MIRROR" > "$new.log" 2>&1; then
        # The mirror answered the check but not the download: the machine cannot make the
        # root now, which is a skip (77), said with the reason, not a failure of presentd.
        tail -20 "$new.log" >&2; rm -rf --one-file-system "$new"
        echo "cannot boot systemd as PID 1 here: debootstrap of $SUITE from $MIRROR failed (its log's end is above)" >&2
        exit 77
    fi
    # a pristine machine: no apt lists or caches, no machine identity (each box gets one),
    # nothing that would start apt or fs maintenance in the middle of a test
    inroot "$new" 'apt-get clean; rm -rf /var/lib/apt/lists/*'
    : > "$new/etc/machine-id"
    rm -f "$new/usr/sbin/policy-rc.d"
    for u in getty.target console-getty.service apt-daily.timer apt-daily-upgrade.timer \
             dpkg-db-backup.timer e2scrub_all.timer fstrim.timer man-db.timer; do
        ln -sfn /dev/null "$new/etc/systemd/system/$u"
    done
    # /etc and /var are up to date with /usr: no ConditionNeedsUpdate= units at each boot
    for f in etc var; do touch -r "$new/usr" "$new/$f/.updated"; done
    echo "$ROOT_TAG" > "$new/.sysbox-root"
    rm -rf --one-file-system "$BASE"; mv "$new" "$BASE"; rm -f "$new.log"
    log "cached root ready in $((SECONDS - t0)) s ($(du -sh --one-file-system "$BASE" | cut -f1))"
}

pid_start() { local s; { read -r s < "/proc/$1/stat"; } 2>/dev/null || return 1; s=${s##*) }; set -- $s; [ "$1" != Z ] && echo "${20}"; }
load_pid1() { PID1= START1=; [ -s "$1/pid1" ] && read -r PID1 START1 < "$1/pid1"; [ -n "$START1" ]; }
box_alive() { [ -n "${PID1:-}" ] && [ "$(pid_start "$PID1")" = "$START1" ]; }
box_exec() {   # box_exec RUN CMD...: as root in the box, with a clean environment
    local run=$1; shift
    load_pid1 "$run" || die "no box in $run"
    nsenter -t "$PID1" -m -u -i -p -C -r -w -- /usr/bin/env -i PATH=$BOX_PATH HOME=/root USER=root \
        LOGNAME=root LANG=C.UTF-8 TERM=dumb "$@"
}

# Move this process (PID 1 of the new PID namespace, host /proc still mounted) into a new
# cgroup sysbox-ID below its own in each hierarchy systemd uses; list them in $RUN/cgroups.
cg_enter() {
    local run=$1 id=${1##*/} mp fstype opts ctrls o want path dir mopts
    : > "$run/cgroups"
    while read -r mp fstype opts; do
        if [ "$fstype" = cgroup2 ]; then
            path=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' /proc/self/cgroup); mopts=-
        else
            ctrls= want=0
            for o in ${opts//,/ }; do
                case $o in name=*|cpu|cpuacct|cpuset|blkio|memory|devices|pids|freezer|net_cls|net_prio|perf_event|hugetlb|rdma|misc) ctrls+=${ctrls:+,}$o ;; esac
                [[ $CG_WANT == *" $o "* ]] && want=1
            done
            [ $want = 1 ] || continue
            path=$(awk -F: -v c="$ctrls" '{ n = split($2, A, ","); m = split(c, B, ","); if (n != m) next
                     for (i = 1; i <= m; i++) { f = 0; for (j = 1; j <= n; j++) if (A[j] == B[i]) f = 1; if (!f) next }
                     print $3; exit }' /proc/self/cgroup)
            mopts=$ctrls; [[ $ctrls == name=* ]] && mopts=none,$ctrls
        fi
        [ -n "$path" ] || continue
        dir=$mp${path%/}/sysbox-$id
        mkdir "$dir" && echo 0 > "$dir/cgroup.procs" || return 1
        printf '%s\t%s\t%s\t%s\n' "$dir" "$(basename "$mp" | sed 's|^cgroup$|.|')" "$fstype" "$mopts" >> "$run/cgroups"
    done < <(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) ~ /^cgroup2?$/) print $5, $(i+1), $(i+3) }' /proc/self/mountinfo)
    [ -s "$run/cgroups" ]
}

inner() {   # PID 1 of the new PID namespace
    local run=$1 st
    read -r st < /proc/self/stat; local hostpid=${st%% *}; st=${st##*) }; set -- $st; local hoststart=${20}
    cg_enter "$run" || { echo "sysbox: cgroup set-up failed" >&2; exit 125; }
    export SYSBOX_HOSTPID="$hostpid $hoststart"
    exec unshare --cgroup -- "$SELF" __inner2 "$run"
}

inner2() {  # the box's mounts, pivot_root, exec systemd
    local run=$1 R=$1/root dir name fstype mopts n
    m() { mount "$@" || { echo "sysbox: mount $* failed" >&2; exit 125; }; }
    m -t overlay overlay -o "lowerdir=$BASE,upperdir=$run/upper,workdir=$run/work" "$R"
    m -t proc -o nosuid,nodev,noexec proc "$R/proc"
    for n in sys sysrq-trigger; do [ -e "$R/proc/$n" ] || continue; m --bind "$R/proc/$n" "$R/proc/$n"; m -o remount,bind,ro "$R/proc/$n"; done
    m --bind /sys "$R/sys"; m -o remount,bind,ro,nosuid,nodev,noexec "$R/sys"
    if awk -F'\t' '$2 == "." { f = 1 } END { exit !f }' "$run/cgroups"; then
        m -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$R/sys/fs/cgroup"
    else
        m -t tmpfs -o mode=755,nosuid,nodev,noexec,size=1m tmpfs "$R/sys/fs/cgroup"
        while IFS=$'\t' read -r dir name fstype mopts; do
            mkdir -p "$R/sys/fs/cgroup/$name"
            if [ "$fstype" = cgroup2 ]; then m -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$R/sys/fs/cgroup/$name"
            else m -t cgroup -o "nosuid,nodev,noexec,$mopts" cgroup "$R/sys/fs/cgroup/$name"; fi
        done < "$run/cgroups"
        m -o remount,ro,nosuid,nodev,noexec "$R/sys/fs/cgroup"
    fi
    m -t tmpfs -o mode=755,nosuid,size=4m tmpfs "$R/dev"
    for n in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
        set -- $n; mknod -m 666 "$R/dev/$1" c "$2" "$3"
    done
    mkdir -p "$R/dev/pts" "$R/dev/shm"
    m -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5,nosuid,noexec devpts "$R/dev/pts"
    ln -s pts/ptmx "$R/dev/ptmx"
    m -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/dev/shm"
    ln -s /proc/self/fd "$R/dev/fd"
    for n in 0:stdin 1:stdout 2:stderr; do ln -s "/proc/self/fd/${n%%:*}" "$R/dev/${n#*:}"; done
    touch "$R/dev/console"
    con=$(tty 2>/dev/null) && m --bind "$con" "$R/dev/console"
    m -t tmpfs -o mode=755,nosuid,nodev tmpfs "$R/run"
    m -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/tmp"
    # the pid file is written once the root is the box's, so an nsenter -r never lands in ours
    exec 6>"$run/pid1"
    mkdir -p "$R/.oldroot"
    cd "$R" && pivot_root . .oldroot && cd / && umount -l /.oldroot && rmdir /.oldroot ||
        { echo "sysbox: pivot_root failed" >&2; exit 125; }
    echo "$SYSBOX_HOSTPID" >&6; exec 6>&-
    exec /usr/bin/setpriv --bounding-set "$CAP_DROP" /usr/bin/env -i container=other TERM=dumb /lib/systemd/systemd --system
}

# boot RUN: start the box, wait until systemd says running (or degraded: listed)
boot() {
    local run=$1 t0 state
    build_root
    mkdir -p "$run/upper/etc" "$run/work" "$run/root"
    od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$run/upper/etc/machine-id"; echo >> "$run/upper/etc/machine-id"
    echo sysbox > "$run/upper/etc/hostname"
    t0=$(date +%s%N)
    SHELL=/bin/sh setsid script -q -e -f -c "exec $(printf '%q' "$SELF") __launch $(printf '%q' "$run")" "$run/console.log" \
        </dev/null >/dev/null 2>&1 &
    local i launcher=$!
    for ((i = 0; i < 600; i++)); do load_pid1 "$run" && break; kill -0 $launcher 2>/dev/null || break; sleep 0.1; done
    load_pid1 "$run" || { tail -20 "$run/console.log" >&2; die "the box did not start"; }
    for ((i = 0; i < 600; i++)); do
        box_alive || break
        state=$(timeout 60 nsenter -t "$PID1" -m -u -i -p -C -r -w -- /usr/bin/systemctl is-system-running --wait 2>/dev/null)
        case $state in running|degraded) break ;; esac
        sleep 0.2
    done
    case $state in
        running) ;;
        degraded) log "box degraded; failed units: $(box_exec "$run" systemctl --failed --no-legend --plain | awk '{print $1}' | paste -sd' ')" ;;
        *) tail -30 "$run/console.log" >&2; die "the box did not boot (state: ${state:-no answer})" ;;
    esac
    log "box up ($state) in $(( ($(date +%s%N) - t0) / 1000000 )) ms; systemd is host pid $PID1"
}

stop() {
    local run=$1 i dir
    if load_pid1 "$run" && box_alive; then
        timeout 10 nsenter -t "$PID1" -m -u -i -p -C -r -w -- /usr/bin/systemctl poweroff >/dev/null 2>&1
        for ((i = 0; i < 150; i++)); do box_alive || break; sleep 0.1; done
        box_alive && kill -9 "$PID1"
        for ((i = 0; i < 50; i++)); do box_alive || break; sleep 0.1; done
    fi
    if [ -f "$run/cgroups" ]; then
        while IFS=$'\t' read -r dir _; do
            for ((i = 0; i < 20; i++)); do
                find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null; [ -d "$dir" ] || break; sleep 0.1
            done
        done < "$run/cgroups"
    fi
    rm -rf --one-file-system "$run"
}

case ${1:-} in
    check) check ;;
    root) build_root ;;
    boot) boot "$2" ;;
    exec) run=$2; shift 2; box_exec "$run" "$@" ;;
    stop) stop "$2" ;;
    __launch) exec unshare --fork --pid --mount --uts --ipc --propagation private --kill-child=SIGKILL -- "$SELF" __inner "$2" ;;
    __inner) inner "$2" ;;
    __inner2) inner2 "$2" ;;
    *) sed -n '2,10p' "$SELF" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
