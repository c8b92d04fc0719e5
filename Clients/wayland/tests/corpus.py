"""Notifications as real apps send them: the arguments of org.freedesktop.Notifications.Notify
(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout), with the
D-Bus type of every hint, since servers meet the types apps really use (Chromium's urgency is
a uint32, not the spec's byte). Each entry says which app and where its shape comes from.

An entry is a dict:
- ``name``: the test's id for it;
- ``app``, ``icon``, ``summary``, ``body``, ``actions`` (the flat key, label list), ``timeout``;
- ``hints``: name → (D-Bus signature, value); ``IMAGE`` as a value is the ``image-data``
  struct (iiibiiay) of a generated picture, and ``PNG`` as ``icon`` or a value is the path of a
  PNG written in the test's directory;
- ``replaces``: the name of an earlier entry whose id this one passes as replaces_id (sent
  after it, in the same batch);
- ``ocr``: False where the body is in a script the installed tesseract cannot read (only
  ``eng`` is installed: `tesseract --list-langs`); the summary is still read;
- ``note``: where the shape comes from.

Sources: the freedesktop Desktop Notifications Specification 1.2 (hints, image-data, body
markup, the "default" action); KDE's inline-reply (the `inline-reply` action key and
`x-kde-reply-placeholder-text`, plasma-workspace's notifications server); Canonical's
`x-canonical-private-synchronous` and dunst's `x-dunst-stack-tag` (replace by tag, the volume
OSDs of sway setups); Chromium's notification_platform_bridge_linux.cc (urgency uint32,
image-data from the site's icon, the origin in the body, "Settings" as an action);
Firefox's nsAlertsIconListener (libnotify: image-data, a "default" action);
Evolution's mail-notification and alarm-notify plugins; nm-applet's applet.c strings;
gsd-power's battery warnings; udiskie's notify.py (browse and terminal actions);
libnotify 0.8's notify-send (sender-pid, urgency byte 1, -i as image-path).
"""

from __future__ import annotations

import os

from gi.repository import GLib

IMAGE = "<image-data>"
PNG = "<png path>"

# What notify-send (libnotify 0.8) adds to every notification.
NOTIFY_SEND = {"urgency": ("y", 1), "sender-pid": ("x", 4242)}


def _notify_send(**hints):
    return dict(NOTIFY_SEND, **hints)


CORPUS: list[dict] = [
    # --- what a newcomer sent first --------------------------------------------------------
    dict(name="newcomer-open", app="notify-send", icon="dialog-information", summary="Title here", body="Body text here",
         actions=["open", "Open"], hints=_notify_send(**{"image-path": ("s", "dialog-information")}), timeout=-1,
         note="a newcomer's first try: notify-send -i dialog-information -A open=Open 'Title here' 'Body text here'"),
    dict(name="newcomer-disk", app="notify-send", icon="dialog-warning", summary="Disk almost full",
         body="Only 1.2 GB left on /home. Empty the trash or remove files you no longer need.",
         actions=[], hints=_notify_send(urgency=("y", 2), **{"image-path": ("s", "dialog-warning")}), timeout=-1,
         note="a newcomer's second try: notify-send -u critical -i dialog-warning; critical: no timeout on any server"),
    dict(name="gi-notify", app="rename.py", icon="document-save", summary="Report exported",
         body="report.pdf was written to the Documents folder", actions=["show", "Show"],
         hints={"urgency": ("y", 1)}, timeout=-1,
         note="a script's: Python with gi.repository.Notify, one action (libnotify adds no sender-pid here)"),
    dict(name="progress-value", app="notify-send", icon="emblem-synchronizing", summary="Syncing photos",
         body="128 of 320 photos uploaded", actions=[],
         hints=_notify_send(value=("i", 40)), timeout=-1,
         note="notify-send -h int:value:40 with an icon: a progress bar"),

    # --- browsers ---------------------------------------------------------------------
    dict(name="firefox", app="Firefox", icon="", summary="GitHub",
         body="octocat commented on issue #36: this looks right to me now",
         actions=["default", "Activate"],
         hints={"image-data": ("(iiibiiay)", IMAGE), "desktop-entry": ("s", "firefox"), "urgency": ("y", 1)},
         timeout=-1,
         note="Firefox (nsAlertsIconListener over libnotify): the site's icon as image-data, the "
              "click as a 'default' action labelled Activate, desktop-entry firefox"),
    dict(name="chromium-message", known="tesseract misses one word of the site's origin line (the card shows it whole)", app="Chromium", icon="", summary="New message from Alice",
         body="chat.example.com\n\nLunch at noon? I booked the usual place", actions=["default", "Activate", "settings", "Settings"],
         hints={"urgency": ("u", 1), "image-data": ("(iiibiiay)", IMAGE), "desktop-entry": ("s", "chromium")},
         timeout=-1,
         note="Chromium (notification_platform_bridge_linux.cc): urgency as a uint32, the site's "
              "icon as image-data, the origin as the body's first line, a Settings action"),
    dict(name="chromium-gmail", app="Google Chrome", icon="", summary="Invoice 2026-114 from Acme",
         body="mail.google.com\n\nPlease find attached the invoice for November", actions=[
             "default", "Activate", "0", "Archive", "1", "Reply", "settings", "Settings"],
         hints={"urgency": ("u", 1), "image-data": ("(iiibiiay)", IMAGE)}, timeout=-1,
         note="Chrome with a site's two buttons (ids 0, 1) and its own Settings: three buttons and a default"),
    dict(name="chromium-critical", app="Chromium", icon="", summary="Meeting starts now",
         body="calendar.example.com\n\nWeekly planning, room 2", actions=["default", "Activate"],
         hints={"urgency": ("u", 2), "image-data": ("(iiibiiay)", IMAGE)}, timeout=0,
         note="Chromium's requireInteraction: urgency 2 as a uint32 and expire_timeout 0 (never)"),
    dict(name="firefox-long-title", app="Firefox", icon="",
         summary="Your download of the quarterly financial statements and the annual audit report is complete",
         body="reports.example.org", actions=["default", "Activate"],
         hints={"image-data": ("(iiibiiay)", IMAGE)}, timeout=-1,
         note="a web page's title longer than any card: the summary is cut, visibly"),

    # --- mail -------------------------------------------------------------------------
    dict(name="thunderbird", app="Thunderbird", icon="mail-unread", summary="Bob Smith",
         body="Quarterly report draft: here is the draft we talked about on Friday", actions=["default", "Open"],
         hints={"desktop-entry": ("s", "thunderbird"), "category": ("s", "email.arrived")}, timeout=-1,
         note="Thunderbird's new-mail alert (libnotify): sender as summary, subject and preview as body"),
    dict(name="evolution-markup", app="Evolution", icon="evolution",
         summary="New email in Evolution",
         body="You have received 3 new messages.\n<b>From:</b> Carol &lt;carol@example.org&gt;\n<b>Subject:</b> Minutes",
         actions=["default", "Show INBOX"],
         hints={"desktop-entry": ("s", "org.gnome.Evolution"), "category": ("s", "email.arrived"),
                "sound-name": ("s", "message-new-email")}, timeout=-1,
         note="Evolution's mail-notification plugin: body markup with <b> and an escaped address"),
    dict(name="mail-long-body", app="Evolution", icon="mail-unread", summary="Dana Levi",
         body=("Re: the offsite. Hi all, a few notes after yesterday's call. The venue can seat forty, "
               "lunch is included, and the train from the central station takes about fifty minutes. "
               "Please tell me by Thursday whether you will join, whether you need a room for the night, "
               "and whether you have any dietary requirements, so that I can confirm the booking with the "
               "hotel before the weekend. The agenda follows in a separate mail with the slides."),
         actions=["default", "Open"], hints={"category": ("s", "email.arrived")}, timeout=-1,
         note="a mail preview longer than any card: the body is cut, visibly"),

    # --- chat -------------------------------------------------------------------------
    dict(name="slack", app="Slack", icon="", summary="Alice (#general)",
         body="can you review the deploy checklist before three?", actions=["default", "Click"],
         hints={"image-data": ("(iiibiiay)", IMAGE), "urgency": ("y", 1)}, timeout=-1,
         note="Slack (Electron's libnotify backend): the avatar as image-data, a default action"),
    dict(name="element-reply", known="the reply field is focused with its placeholder under the ring, and tesseract misses the body's lone 'I'", app="Element", icon=PNG, summary="Bob in Project Room",
         body="I pushed the fix, CI is green now", actions=["default", "", "inline-reply", "Reply"],
         hints={"x-kde-reply-placeholder-text": ("s", "Reply to Bob"), "desktop-entry": ("s", "io.element.Element")},
         timeout=-1,
         note="a chat app with KDE's inline reply: the inline-reply action and its placeholder text"),
    dict(name="telegram-russian", app="Telegram Desktop", icon="", summary="Dmitri",
         body="Привет! Ты придёшь сегодня на встречу в шесть? Мы собираемся у входа в парк.",
         actions=["default", "", "mail-mark-read", "Mark as read", "inline-reply", "Reply"],
         hints={"image-data": ("(iiibiiay)", IMAGE), "x-kde-reply-placeholder-text": ("s", "Reply"),
                "desktop-entry": ("s", "org.telegram.desktop")}, timeout=-1, ocr=False,
         note="Telegram Desktop (its Linux notification manager): avatar as image-data, Mark as read, "
              "inline reply; a Cyrillic body"),
    dict(name="element-hebrew", app="Element", icon=PNG, summary="Noa",
         body="שלום! הפגישה של מחר נדחתה לשעה שלוש אחר הצהריים, בחדר הישיבות בקומה השנייה. אנא אשרו השתתפות.",
         actions=["default", ""], hints={}, timeout=-1, ocr=False,
         note="a right-to-left body (Hebrew), longer than one line"),
    dict(name="whatsapp-arabic", app="Chromium", icon="", summary="Omar",
         body="مرحبا! هل يمكنك إرسال الملف قبل نهاية اليوم؟ نحتاجه لاجتماع الغد مع العميل.",
         actions=["default", "Activate"], hints={"urgency": ("u", 1), "image-data": ("(iiibiiay)", IMAGE)},
         timeout=-1, ocr=False,
         note="a web chat through Chromium with a right-to-left body (Arabic)"),
    dict(name="slack-japanese", app="Slack", icon="", summary="Sato (#design)",
         body="新しいデザイン案をアップロードしました。明日の会議の前に確認してください。",
         actions=["default", "Click"], hints={"image-data": ("(iiibiiay)", IMAGE)}, timeout=-1, ocr=False,
         note="a Japanese body: no spaces between words, wrapped by character"),

    # --- calendar ---------------------------------------------------------------------
    dict(name="evolution-reminder", app="Evolution Reminders", icon="appointment-soon", summary="Team stand-up",
         body="Today, 09:30 to 09:45\nRoom 4B", actions=["default", "", "dismiss", "Dismiss", "snooze", "Snooze"],
         hints={"desktop-entry": ("s", "org.gnome.Evolution-alarm-notify"), "urgency": ("y", 1)}, timeout=0,
         note="evolution-alarm-notify (GNOME Calendar's reminders): two buttons, no timeout"),
    dict(name="gnome-calendar", app="Calendar", icon="x-office-calendar", summary="Dentist appointment",
         body="Tomorrow at 14:00", actions=["default", ""],
         hints={"desktop-entry": ("s", "org.gnome.Calendar")}, timeout=-1,
         note="GNOME Calendar's GNotification through the fdo backend: the default action only"),

    # --- progress and OSDs ---------------------------------------------------------------
    dict(name="download-start", app="Transmission", icon="folder-download", summary="Downloading debian-12.iso",
         body="120 MB of 3.7 GB", actions=[], hints={"value": ("i", 3)}, timeout=-1,
         note="a download's progress as the value hint (dunst, mako, swaync draw it as a bar)"),
    dict(name="download-progress", replaces="download-start", app="Transmission", icon="folder-download",
         summary="Downloading debian-12.iso", body="2.4 GB of 3.7 GB", actions=[], hints={"value": ("u", 65)},
         timeout=-1, note="the same download later: replaces_id, value as a uint32 (dunst's tests allow both)"),
    dict(name="download-done", app="Firefox", icon="folder-download", summary="Download complete",
         body="debian-12.iso", actions=["default", "Open", "folder", "Show in Folder"], hints={}, timeout=-1,
         note="a finished download with Open and Show in Folder"),
    dict(name="volume-osd", app="volumectl", icon="audio-volume-medium", summary="Volume", body="",
         actions=[], hints={"x-canonical-private-synchronous": ("s", "volume"), "value": ("i", 40),
                            "transient": ("b", True)}, timeout=1500,
         note="a sway user's volume key script: notify-send -h string:x-canonical-private-synchronous:volume "
              "-h int:value:40, no body"),
    dict(name="brightness-osd", app="brightnessctl", icon="display-brightness", summary="Brightness 70%", body="",
         actions=[], hints={"x-dunst-stack-tag": ("s", "brightness"), "value": ("i", 70), "urgency": ("y", 0)},
         timeout=1500, note="the same with dunst's stack tag and low urgency"),

    # --- system -----------------------------------------------------------------------
    dict(name="battery-critical", app="Power", icon="dialog-warning", summary="Battery critically low",
         body="Approximately 9 minutes remaining (5%). Plug in your computer now.", actions=[],
         hints={"urgency": ("y", 2), "category": ("s", "device"), "transient": ("b", False)}, timeout=0,
         note="gsd-power's battery warning: critical, never expires"),
    dict(name="nm-connected", app="NetworkManager", icon="nm-device-wireless", summary="Connection Established",
         body="You are now connected to the Wi-Fi network \u201cHomeNet\u201d.", actions=[],
         hints={"transient": ("b", True), "urgency": ("y", 0)}, timeout=-1,
         note="nm-applet's applet.c: 'Connection Established', the nm-device-wireless icon"),
    dict(name="nm-disconnected", app="NetworkManager", icon="nm-no-connection", summary="Disconnected",
         body="The network connection has been disconnected.", actions=[], hints={"urgency": ("y", 1)}, timeout=-1,
         note="nm-applet when the link goes away"),
    dict(name="systemd-failed", app="systemd", icon="dialog-error", summary="backup.service failed",
         body="Unit backup.service entered the failed state. See journalctl --user -u backup.service",
         actions=[], hints=_notify_send(urgency=("y", 2)), timeout=-1,
         note="an OnFailure= user unit that runs notify-send -u critical (systemd sends none itself)"),
    dict(name="udiskie-mounted", known="tesseract misses one word of the mount path (the card shows it whole)", app="udiskie", icon="drive-removable-media", summary="Device mounted",
         body="USB_STICK mounted on /media/user/USB_STICK", actions=["browse", "Browse directory", "terminal", "Open terminal"],
         hints={}, timeout=-1, note="udiskie's notify.py: mounted, with Browse directory and Open terminal"),
    dict(name="software-updates", app="Software", icon="system-software-update", summary="Software Updates Available",
         body="Important OS updates are ready to be installed", actions=["default", "", "update", "Restart & Install",
                                                                       "later", "Not Now"],
         hints={"desktop-entry": ("s", "org.gnome.Software")}, timeout=0,
         note="GNOME Software's update notification: two buttons, one with an ampersand"),

    # --- markup and icons --------------------------------------------------------------
    dict(name="markup", app="GitLab", icon="emblem-ok", summary="Pipeline passed",
         body='<b>Build #512</b> passed in <i>4 minutes</i>, <u>no</u> warnings: '
              '<a href="https://ci.example.org/512">open the pipeline</a> &amp; artifacts',
         actions=[], hints={}, timeout=-1,
         note="body markup as the spec allows it: b, i, u, a href and an entity"),
    dict(name="icon-path", app="backup.sh", icon=PNG, summary="Backup finished",
         body="42 files copied to /mnt/backup in 3 minutes", actions=[], hints=_notify_send(), timeout=-1,
         note="an icon by path: notify-send -i /path/to/icon.png"),
    dict(name="image-path-hint", app="grimshot", icon="", summary="Screenshot saved",
         body="~/Pictures/screenshot-2026-12-07.png", actions=["default", "Open"],
         hints=_notify_send(**{"image-path": ("s", PNG)}), timeout=-1,
         note="grimshot's notify-send -i with the file it saved: an image-path hint to a PNG"),
    dict(name="spotify", app="Spotify", icon="", summary="Bohemian Rhapsody", body="Queen - A Night at the Opera",
         actions=[], hints={"image-data": ("(iiibiiay)", IMAGE)}, timeout=-1,
         note="a player's now playing: the album art as image-data, no icon name"),
    dict(name="kdeconnect-call", app="KDE Connect", icon="call-start", summary="Incoming call from Mum",
         body="Pixel 7", actions=["mute", "Mute Call"], hints={"category": ("s", "x-kde.call")}, timeout=-1,
         note="KDE Connect's call notification with one action"),
    dict(name="summary-only", app="notify-send", icon="", summary="Hello", body="", actions=[],
         hints=_notify_send(), timeout=-1, note="notify-send Hello: a summary and nothing else"),
]


def icon_png(path: str) -> None:
    """A 64 px icon: a blue disc on transparency, as an app's own PNG."""
    from PIL import Image, ImageDraw
    image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((4, 4, 60, 60), fill=(40, 110, 200, 255))
    image.save(path)
    os.chmod(path, 0o644)


def image_data() -> GLib.Variant:
    """image-data (iiibiiay): 48 × 48 RGBA, an orange square, rowstride width × 4."""
    w = h = 48
    pixels = bytes([230, 120, 30, 255]) * (w * h)
    return GLib.Variant("(iiibiiay)", (w, h, w * 4, True, 8, 4, pixels))


def variants(hints: dict, png: str = "") -> dict[str, GLib.Variant]:
    """An entry's hints as the GLib variants Notify takes (IMAGE and PNG made real)."""
    out = {}
    for key, (signature, value) in hints.items():
        if value == IMAGE:
            out[key] = image_data()
        else:
            out[key] = GLib.Variant(signature, png if value == PNG else value)
    return out
