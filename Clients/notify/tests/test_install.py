"""make install: the binary, the D-Bus activation file and the systemd user unit; and the
bridge started by D-Bus activation on the first Notify, as a session bus does it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conftest import Observer, entry, run, shown, stack
from presentd.daemon import wait_until

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parents[1]


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    p = tmp_path_factory.mktemp("prefix")
    out = subprocess.run(["make", "-C", str(HERE), "--no-print-directory", "install", f"PREFIX={p}"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return p


def test_make_install_puts_every_file_where_it_belongs(prefix):
    service = prefix / "share/dbus-1/services/org.freedesktop.Notifications.service"
    unit = prefix / "lib/systemd/user/presentd-notify.service"
    assert os.access(prefix / "bin/presentd-notify", os.X_OK)
    assert (prefix / "share/man/man1/presentd-notify.1").exists()
    lines = service.read_text().splitlines()
    assert "Name=org.freedesktop.Notifications" in lines
    assert f"Exec={prefix}/bin/presentd-notify" in lines
    assert "SystemdService=presentd-notify.service" in lines
    text = unit.read_text().splitlines()
    assert f"ExecStart={prefix}/bin/presentd-notify" in text
    assert "BusName=org.freedesktop.Notifications" in text and "Type=dbus" in text


def test_the_user_unit_passes_systemd_analyze_verify(prefix, tmp_path):
    units = tmp_path / "units"
    units.mkdir()
    for name in ("presentd.socket", "presentd.service"):
        (units / name).write_text((REPO / "systemd/user" / name).read_text())
    (units / "presentd-notify.service").write_text((prefix / "lib/systemd/user/presentd-notify.service").read_text())
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    out = subprocess.run(["systemd-analyze", "--user", "verify", str(units / "presentd-notify.service")],
                         env=dict(os.environ, XDG_RUNTIME_DIR=str(runtime), SYSTEMD_UNIT_PATH=f"{units}:"),
                         capture_output=True, text=True, timeout=60)
    # Lines about units of other packages on this machine (another notification server's
    # claim on the same bus name) are not this unit's.
    ours = [l for l in (out.stdout + out.stderr).splitlines()
            if "presentd" in l and "man presentd-notify(1)" not in l and "man presentd(8)" not in l]
    assert ours == [], out.stdout + out.stderr


def test_dbus_activation_starts_the_bridge_on_the_first_notify(prefix, manual, tmp_path):
    services = tmp_path / "services"
    services.mkdir()
    (services / "org.freedesktop.Notifications.service").write_text(
        (prefix / "share/dbus-1/services/org.freedesktop.Notifications.service").read_text())
    config = tmp_path / "session.conf"
    config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={tmp_path}</listen>
  <servicedir>{services}</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    # The activated bridge inherits the bus's environment: presentd's socket by $PRESENTD_SOCKET.
    env = dict(os.environ, PRESENTD_SOCKET=manual.path, XDG_RUNTIME_DIR=str(runtime))
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--print-address=1", "--nofork"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = daemon.stdout.readline().strip()
        observer = Observer(address)
        assert not observer.has_owner()
        out = run(["notify-send", "-p", "Activated", "by D-Bus"], dict(env, DBUS_SESSION_BUS_ADDRESS=address))
        assert out.returncode == 0, out.stderr
        id = int(out.stdout)
        assert observer.has_owner()
        from presentd import Client
        with Client(manual.path) as pd:
            pd.hello("tests")

            def activated_entry():
                return next((e for e in stack(pd).values() if e.get("content", {}).get("title") == "Activated"), None)
            e = wait_until(activated_entry, "the activated bridge's entry on presentd's stack")
            assert e["id"].endswith(f".{id}")
    finally:
        # The activated bridge goes with the bus (it exits when its connection ends).
        daemon.terminate()
        daemon.wait(30)


def test_the_man_page_formats_cleanly_and_names_every_option(prefix):
    page = prefix / "share/man/man1/presentd-notify.1"
    out = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", str(page)], capture_output=True, text=True,
                         env=dict(os.environ, MANWIDTH="80"), timeout=60)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    usage = subprocess.run([str(prefix / "bin/presentd-notify"), "--help"], capture_output=True, text=True).stdout
    import re
    for option in sorted(set(re.findall(r"--[a-z-]+", usage))):
        assert option in out.stdout.replace("‐", "-"), f"{option} is in --help but not in the man page"
