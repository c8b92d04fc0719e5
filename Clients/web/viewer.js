// The presentd viewer: draws the daemon's live modal stack from its frame stream, the
// way a renderer would, and offers controls to present, dismiss, tap and swipe.
// It speaks JSON-RPC 2.0 over a WebSocket that `python -m presentd.web` relays to the
// daemon's socket (one message per line). State for tests: window.presentdViewer.
//
// Frames say where each layer is and which revision of its entry's content to draw
// (contentRevision); the content itself comes with the entry — in the subscribe snapshot,
// stack notifications and the willPresent/updated/adapted lifecycle events — and is kept
// here by entry id and revision. A content object is drawn as a dialog: title, message,
// icon, fields, progress, an embedded-surface placeholder and buttons; its buttons send
// activate, Escape and Enter send key, its fields report focus.
"use strict";

// Content without a colour of its own is filled from its id (as presentd.render does).
const PALETTE = ["#0a84ff", "#30d158", "#ff9f0a", "#bf5af2", "#ff375f", "#64d2ff", "#ffd60a", "#5e5ce6"];
const $ = (id) => document.getElementById(id);

const viewer = (window.presentdViewer = {
  ready: false,      // subscribed and the snapshot drawn
  seq: 0,            // the last frame drawn (0: the snapshot)
  time: 0,           // its time
  clock: null,       // "monotonic" or "manual"
  fps: 60,
  container: { width: 390, height: 844, safeArea: { top: 47 } },
  zoom: 1,
  layers: [],        // as last drawn
  entries: [],
  contents: new Map(),   // entry id → Map(contentRevision → content: string, object or null)
  focus: null,       // the last focus sent: {id, field (null: none), answered}
  failures: [],      // requests the daemon refused, as logged
  statusBar: { style: "default", hidden: false },
  /** Where the container is on the page: CSS pixels of its origin, and pixels per point. */
  geometry() {
    const r = $("screen").getBoundingClientRect();
    return { left: r.left + $("screen").clientLeft, top: r.top + $("screen").clientTop, zoom: viewer.zoom };
  },
});

// MARK: JSON-RPC over the WebSocket

class Connection {
  constructor(url) {
    this.nextID = 1;
    this.pending = new Map();
    this.onNotification = () => {};
    this.onRequest = () => null;
    this.onClose = () => {};
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.onopen = resolve;
      this.socket.onerror = reject;
    });
    this.socket.onmessage = (e) => this.receive(JSON.parse(e.data));
    this.socket.onclose = (e) => {
      for (const { reject } of this.pending.values()) reject(new Error("connection closed"));
      this.onClose(e);
    };
  }

  call(method, params) {
    const id = this.nextID++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    this.socket.send(JSON.stringify(message));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
  }

  receive(m) {
    if (typeof m.method === "string" && m.id !== undefined) {
      const result = this.onRequest(m.method, m.params);
      this.socket.send(JSON.stringify(result === null
        ? { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found: " + m.method } }
        : { jsonrpc: "2.0", id: m.id, result }));
    } else if (typeof m.method === "string") {
      this.onNotification(m.method, m.params || {});
    } else if (this.pending.has(m.id)) {
      const { resolve, reject, method } = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) {
        const field = m.error.data && m.error.data.field ? ` [${m.error.data.field}]` : "";
        reject(new Error(`${method}: ${m.error.message} (${m.error.code})${field}`));
      } else {
        resolve(m.result);
      }
    }
  }
}

// MARK: Content, by entry and revision

/** Keeps what an entry shows at a revision (`content` absent or null: nothing). The first
 * copy of a revision is kept, so a drawn layer is not rebuilt when the same content comes
 * again (a stack notification repeats what willPresent said). */
function storeContent(id, revision, content) {
  if (typeof revision !== "number") return;
  let revisions = viewer.contents.get(id);
  if (!revisions) viewer.contents.set(id, (revisions = new Map()));
  if (!revisions.has(revision)) revisions.set(revision, content === undefined ? null : content);
  const el = layerElements.get(id + "\u0000content");
  if (el) drawContent(el, id, el.presentdWanted);  // it may have been waiting for this one
}

/** The content to draw for a frame's revision: that one, else (not heard of yet) the latest
 * known; older revisions are forgotten once a newer one is drawn. */
function contentFor(id, revision) {
  const revisions = viewer.contents.get(id);
  if (!revisions || revisions.size === 0) return { revision: 0, content: null };
  if (revisions.has(revision)) {
    for (const r of revisions.keys()) if (r < revision) revisions.delete(r);
    return { revision, content: revisions.get(revision) };
  }
  const latest = Math.max(...revisions.keys());
  return { revision: latest, content: revisions.get(latest) };
}

function storeEntries(entries) {
  for (const e of entries) storeContent(e.id, e.contentRevision, e.content);
  const present = new Set(entries.map((e) => e.id));
  for (const id of viewer.contents.keys()) if (!present.has(id)) viewer.contents.delete(id);
}

// MARK: Drawing

const layerElements = new Map();
const COLOUR = /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/;
let nextElementID = 1;

/** A string label like "#rrggbb" is the layer's colour; anything else (or nothing) is filled
 * from the entry's id. */
function contentColor(id, content) {
  if (typeof content === "string" && COLOUR.test(content)) return content;
  let hash = 0;
  for (const c of id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** #rrggbb or #rrggbbaa with an extra opacity, as CSS rgba(). */
function rgba(hex, opacity) {
  const n = (i) => parseInt(hex.slice(i, i + 2), 16);
  const a = hex.length === 9 ? n(7) / 255 : 1;
  return `rgba(${n(1)}, ${n(3)}, ${n(5)}, ${a * opacity})`;
}

function layoutScreen() {
  const c = viewer.container;
  const stage = $("stage");
  viewer.zoom = Math.min(1, (stage.clientHeight - 80) / c.height, (stage.clientWidth - 60) / c.width);
  const screen = $("screen");
  screen.style.width = c.width * viewer.zoom + "px";
  screen.style.height = c.height * viewer.zoom + "px";
  const presenter = $("presenter");
  const top = ((c.safeArea && c.safeArea.top) || 0) * viewer.zoom;
  presenter.style.transform = `scale(${viewer.zoom})`;
  presenter.style.transformOrigin = "0 0";
  presenter.style.width = c.width + "px";
  presenter.style.height = c.height + "px";
  presenter.innerHTML = `<div style="height:${top / viewer.zoom + 8}px"></div><h3>Presenter</h3>`;
  for (let y = 120; y < c.height; y += 60) presenter.insertAdjacentHTML("beforeend", '<div class="row"></div>');
  const bar = $("statusbar");
  bar.style.height = Math.max(20, top) + "px";
  bar.style.fontSize = 16 * viewer.zoom + "px";
}

function drawStatusBar() {
  const bar = $("statusbar");
  bar.hidden = !!viewer.statusBar.hidden;
  bar.classList.toggle("light", viewer.statusBar.style === "lightContent");
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

const isRich = (content) => content !== null && typeof content === "object";
let redrawing = false;  // drawContent is replacing inputs: their focus events are not the user's

/** Draws the inside of entry `id`'s content layer for the frame's `revision`, unless it
 * already shows that content. What the user typed, and which field has focus, survive a
 * redraw for the fields that are still there. */
function drawContent(el, id, revision) {
  const { revision: drawn, content } = contentFor(id, revision);
  if (el.presentdContent === content && el.dataset.revision === String(drawn)) return;
  const typed = new Map();
  for (const input of el.querySelectorAll("input[data-field]")) {
    if (input.dataset.edited) typed.set(input.dataset.field + "\u0000" + input.type, input.value);
  }
  const focused = el.contains(document.activeElement) && document.activeElement.dataset.field;
  redrawing = true;
  try {
    el.replaceChildren();
    for (const name of ["role", "aria-modal", "aria-label", "aria-labelledby", "aria-describedby", "aria-live"]) {
      el.removeAttribute(name);
    }
    el.setAttribute("aria-modal", "true");
    el.classList.toggle("rich", isRich(content));
    el.style.background = isRich(content) ? "" : contentColor(id, content);
    if (isRich(content)) {
      drawDialog(el, id, content, typed);
    } else {
      const label = typeof content === "string" && !content.startsWith("#") ? content : id;
      el.appendChild(element("span", "label", label));
      el.setAttribute("role", "dialog");
      el.setAttribute("aria-label", label);
    }
    el.presentdContent = content;
    el.dataset.revision = String(drawn);
    const again = focused && el.querySelector(`input[data-field="${CSS.escape(focused)}"]`);
    if (again) again.focus({ preventScroll: true });
  } finally {
    redrawing = false;
  }
  if (focused && !el.contains(document.activeElement)) focusChanged(id, null);  // its field is gone
  sizeContent(el);
}

/** A content object, as a dialog in container points (sizeContent scales it). */
function drawDialog(el, id, c, typed) {
  const body = element("div", "body");
  const a11y = c.accessibility || {};
  const described = [];
  if (c.icon) {
    const what = c.icon.name !== undefined ? c.icon.name : c.icon.path;
    // A browser page cannot read the daemon's files: a path is named, not shown.
    const icon = element("div", "icon", c.icon.name !== undefined ? what : what.split("/").pop());
    icon.setAttribute("role", "img");
    icon.setAttribute("aria-label", "icon " + what);
    icon.title = what;
    body.appendChild(icon);
  }
  if (c.title !== undefined) {
    const title = body.appendChild(element("h2", "title", c.title));
    title.id = `presentd-title-${nextElementID++}`;
    if (a11y.label === undefined) el.setAttribute("aria-labelledby", title.id);  // a label wins
  }
  if (c.message !== undefined) {
    const message = body.appendChild(element("p", "message", c.message));
    message.id = `presentd-message-${nextElementID++}`;
    described.push(message.id);
  }
  if (c.surface) {
    const names = [c.surface.appId, c.surface.handle].filter((n) => n !== undefined);
    const surface = body.appendChild(element("div", "surface", "embedded surface: " + names.join(" · ")));
    surface.setAttribute("role", "img");
    surface.setAttribute("aria-label", surface.textContent);
    if (c.surface.appId !== undefined) surface.dataset.appId = c.surface.appId;
    if (c.surface.handle !== undefined) surface.dataset.handle = c.surface.handle;
  }
  if (c.fields && c.fields.length) {
    const fields = body.appendChild(element("div", "fields"));
    for (const f of c.fields) {
      const input = fields.appendChild(element("input"));
      input.type = { secure: "password", number: "number" }[f.kind] || "text";
      input.dataset.field = f.id;
      input.dataset.entry = id;
      if (f.kind === "number") input.step = "any";
      if (f.placeholder !== undefined) input.placeholder = f.placeholder;
      input.setAttribute("aria-label", f.placeholder !== undefined ? f.placeholder : f.id);
      const key = f.id + "\u0000" + input.type;
      if (typed.has(key)) {
        input.value = typed.get(key);
        input.dataset.edited = "1";
      } else if (f.value !== undefined) {
        input.value = String(f.value);
      }
    }
  }
  if ("progress" in c) {
    const bar = body.appendChild(element("progress"));
    bar.max = 1;
    if (c.progress !== null) bar.value = c.progress;  // no value: indeterminate
    bar.setAttribute("aria-label", c.title !== undefined ? c.title : "progress");
  }
  if (c.actions && c.actions.length) {
    const actions = body.appendChild(element("div", "actions"));
    actions.classList.toggle("stacked", c.actions.length > 2);
    for (const action of c.actions) {
      const button = actions.appendChild(element("button", "action", action.title));
      button.type = "button";
      button.dataset.action = action.id;
      if (action.role) button.dataset.role = action.role;
      button.onclick = () => activate(id, action.id, el);
    }
  }
  if (a11y.hint !== undefined) {
    const hint = body.appendChild(element("span", "hint", a11y.hint));
    hint.id = `presentd-hint-${nextElementID++}`;
    described.push(hint.id);
  }
  el.appendChild(body);
  el.setAttribute("role", c.actions && c.actions.length ? "alertdialog" : "dialog");
  if (a11y.label !== undefined) el.setAttribute("aria-label", a11y.label);
  else if (c.title === undefined) el.setAttribute("aria-label", id);
  if (described.length) el.setAttribute("aria-describedby", described.join(" "));
  if (a11y.announce) el.setAttribute("aria-live", a11y.announce);
}

/** A dialog is laid out in container points at the layer's size, then zoomed with the page. */
function sizeContent(el) {
  const body = el.querySelector(".body");
  if (!body || !el.presentdFrame) return;
  body.style.width = el.presentdFrame.width + "px";
  body.style.height = el.presentdFrame.height + "px";
  body.style.transform = `scale(${viewer.zoom})`;
}

/** Draws layers bottom to top: frame, alpha, scale about the centre, rotation about the
 * vertical axis, corner radius, shadow, colour and blur; a content layer's inside when its
 * revision changes. */
function draw(layers) {
  const z = viewer.zoom;
  const seen = new Set();
  layers.forEach((l, index) => {
    const key = l.id + "\u0000" + l.role;
    seen.add(key);
    let el = layerElements.get(key);
    if (!el) {
      el = document.createElement("div");
      el.className = "layer " + l.role;
      el.dataset.id = l.id;
      el.dataset.role = l.role;
      $("screen").insertBefore(el, $("statusbar"));
      layerElements.set(key, el);
    }
    const f = l.frame;
    Object.assign(el.style, {
      left: f.x * z + "px", top: f.y * z + "px", width: f.width * z + "px", height: f.height * z + "px",
      zIndex: String(10 + index), opacity: String(l.alpha), borderRadius: l.cornerRadius * z + "px",
      transform: `scale(${l.scale}) rotateY(${l.rotation}rad)`,
    });
    if (l.role === "dimming") {
      el.style.background = l.color || "#000000";
      el.style.backdropFilter = l.blur ? `blur(${12 * z}px)` : "";
    } else {
      el.presentdFrame = f;
      el.presentdWanted = l.contentRevision;
      drawContent(el, l.id, l.contentRevision);
      const s = l.shadow;
      el.style.boxShadow = s ? `${s.offset.x * z}px ${s.offset.y * z}px ${s.radius * z}px ${rgba(s.color, s.opacity)}` : "";
      el.classList.toggle("back", Math.cos(l.rotation) < 0);
      el.classList.toggle("tint-dimmed", !!l.tintDimmed);
      const label = el.querySelector(".label");
      if (label) label.style.fontSize = 18 * z + "px";
      sizeContent(el);
    }
  });
  for (const [key, el] of layerElements) {
    if (!seen.has(key)) {
      el.remove();
      layerElements.delete(key);
    }
  }
  viewer.layers = layers;
  applyModality();
}

/** The entry that takes input: the topmost one that is not queued or leaving (as `key`
 * picks it). */
function topEntry() {
  return viewer.entries.filter((e) => e.state === "presenting" || e.state === "presented").pop();
}

/** Every entry is modal: all below the one that takes input is inert (and so is any entry
 * above it that is leaving), the presenter too. */
function applyModality() {
  const top = topEntry();
  $("presenter").inert = !!top;
  for (const el of layerElements.values()) {
    const inert = !top || el.dataset.id !== top.id;
    if (inert && !el.inert && el.contains(document.activeElement)) document.activeElement.blur();  // says so
    el.inert = inert;
  }
}

function drawStack(entries) {
  viewer.entries = entries;
  if (viewer.focus && !entries.some((e) => e.id === viewer.focus.id)) viewer.focus = null;
  $("stack").innerHTML = "";
  for (const e of entries) {
    const li = document.createElement("li");
    li.textContent = `${e.id} · ${typeof e.style === "string" ? e.style : e.style.type} · ${e.state}`;
    li.title = "click to dismiss";
    li.onclick = () => act(connection.call("dismiss", { id: e.id }));
    $("stack").appendChild(li);
  }
  applyModality();
}

function log(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("log").prepend(li);
  while ($("log").children.length > 80) $("log").lastChild.remove();
}

function showClock() {
  $("clock-readout").textContent = `${viewer.clock} clock · t = ${viewer.time.toFixed(3)} s · frame ${viewer.seq}`;
}

// MARK: The connection

const connection = new Connection(`ws://${location.host}/ws`);

connection.onNotification = (method, p) => {
  switch (method) {
    case "frame":
      viewer.seq = p.seq;
      viewer.time = p.time;
      draw(p.layers);
      showClock();
      break;
    case "stack":
      storeEntries(p.entries);
      drawStack(p.entries);
      break;
    case "statusBar":
      viewer.statusBar = { style: p.style, hidden: p.hidden };
      drawStatusBar();
      log(`statusBar ${p.style}${p.hidden ? " hidden" : ""}`);
      break;
    case "lifecycle":
      if (p.event === "willPresent" || p.event === "updated" || p.event === "adapted") {
        storeContent(p.id, p.contentRevision, p.content);
      } else if (p.event === "didDismiss") {
        viewer.contents.delete(p.id);
      }
      log(`${p.event} ${p.id}${p.reason ? " (" + p.reason + ")" : ""} at ${p.time.toFixed(3)}`);
      break;
    case "action":  // for an entry this page presented
      log(`action ${p.id} → ${p.action} ${JSON.stringify(p.fields)}`);
      break;
    default:
      log(`${method} ${JSON.stringify(p)}`);
  }
};

connection.onRequest = (method, p) => {
  if (method !== "shouldDismiss") return null;
  const allow = !$("veto").checked;
  log(`shouldDismiss ${p.id} (${p.reason}) → ${allow ? "allow" : "veto"}`);
  return { allow };
};

connection.onClose = () => {
  $("connection").textContent = "disconnected (reload to reconnect)";
  viewer.ready = false;
};

async function start() {
  await connection.opened;
  const hello = await connection.call("hello", { client: "presentd-web-viewer", protocol: 1 });
  viewer.clock = hello.clock;
  viewer.fps = hello.fps;
  $("manual-controls").hidden = hello.clock !== "manual";
  const { snapshot } = await connection.call("subscribe", { topics: ["frames", "lifecycle", "stack", "statusBar"] });
  viewer.container = snapshot.container;
  viewer.statusBar = snapshot.statusBar;
  viewer.time = snapshot.time;
  layoutScreen();
  drawStatusBar();
  storeEntries(snapshot.entries);
  drawStack(snapshot.entries);
  draw(snapshot.layers);
  $("connection").textContent = `presentd ${hello.version}, ${hello.fps} fps`;
  showClock();
  viewer.ready = true;
}

/** Runs a request, logging its failure instead of throwing. */
async function act(promise) {
  try {
    return await promise;
  } catch (e) {
    viewer.failures.push(e.message);
    log(e.message);
  }
}

// MARK: Controls

function parsed(value) {
  return value.startsWith("{") ? JSON.parse(value) : value;
}

function presentation() {
  const p = { style: parsed($("style").value), dismissOnTap: $("dismiss-on-tap").checked,
              dismissOnSwipe: $("dismiss-on-swipe").checked, confirmDismiss: $("confirm-dismiss").checked };
  const t = {};
  if ($("transition").value) t.type = $("transition").value;
  if ($("timing").value) t.timing = parsed($("timing").value);
  if ($("duration").value !== "") t.duration = Number($("duration").value);
  if (Object.keys(t).length) p.transition = t;
  if ($("dimming").value) p.background = parsed($("dimming").value);
  const bar = $("statusbar-style").value;
  if (bar) p.statusBar = bar === "hidden" ? { hidden: true } : { style: bar };
  if ($("content").value) p.content = parsed($("content").value);  // a label, or a content object as JSON
  return p;
}

$("present-form").onsubmit = (e) => {
  e.preventDefault();
  let p;
  try {
    p = presentation();
  } catch (error) {
    return log("content: " + error.message);
  }
  act(connection.call("present", p));
};
$("dismiss-top").onclick = () => {
  const top = topEntry();
  if (top) act(connection.call("dismiss", { id: top.id }));
};
$("dismiss-all").onclick = () => act(connection.call("dismissAll", {}));

function resize(width, height) {
  act(connection.call("setContainer", { width, height, duration: 0.3 }).then((r) => {
    viewer.container = r.container;
    layoutScreen();
  }));
}
$("portrait").onclick = () => resize(Math.min(viewer.container.width, viewer.container.height),
                                      Math.max(viewer.container.width, viewer.container.height));
$("landscape").onclick = () => resize(Math.max(viewer.container.width, viewer.container.height),
                                       Math.min(viewer.container.width, viewer.container.height));
$("keyboard").onclick = () => act(connection.call("keyboard", { height: viewer.container.keyboardHeight > 0 ? 0 : 336 })
  .then(() => { viewer.container.keyboardHeight = viewer.container.keyboardHeight > 0 ? 0 : 336; }));

// The manual clock: step it, or let it follow the browser's own clock.
$("step-frame").onclick = () => act(connection.call("advance", { seconds: 1 / viewer.fps }));
$("step-tenth").onclick = () => act(connection.call("advance", { seconds: 0.1 }));
let playing = false;
$("play").onclick = () => {
  playing = !playing;
  $("play").textContent = playing ? "Pause" : "Play";
  let last = performance.now();
  const tick = async (now) => {
    if (!playing) return;
    await act(connection.call("advance", { seconds: Math.min(0.1, (now - last) / 1000) }));
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

// Taps and swipes on the screen, in container points.
let gesture = null;
function point(e) {
  const g = viewer.geometry();
  return { x: (e.clientX - g.left) / g.zoom, y: (e.clientY - g.top) / g.zoom, t: performance.now() };
}
$("screen").addEventListener("pointerdown", (e) => {
  if (e.target.closest(".layer.content button, .layer.content input")) return;  // a control's own
  gesture = { start: point(e), last: point(e), previous: point(e), swiping: false };
  $("screen").setPointerCapture(e.pointerId);
});
$("screen").addEventListener("pointermove", (e) => {
  if (!gesture) return;
  const p = point(e);
  const dx = p.x - gesture.start.x, dy = p.y - gesture.start.y;
  if (!gesture.swiping && Math.hypot(dx, dy) > 6) {
    gesture.swiping = true;
    act(connection.call("swipe", { phase: "began", dx: 0, dy: 0 }));
  }
  if (gesture.swiping) act(connection.call("swipe", { phase: "changed", dx, dy }));
  gesture.previous = gesture.last;
  gesture.last = p;
});
$("screen").addEventListener("pointerup", async (e) => {
  if (!gesture) return;
  const p = point(e), g = gesture;
  gesture = null;
  if (!g.swiping) {
    const r = await act(connection.call("tap", { x: p.x, y: p.y }));
    if (r) log(`tap ${p.x.toFixed(0)},${p.y.toFixed(0)} → ${r.part}${r.id ? " " + r.id : ""}${r.dismissed ? " dismissed" : ""}`);
    return;
  }
  const dt = Math.max(1, p.t - g.previous.t) / 1000;
  const r = await act(connection.call("swipe", { phase: "ended", dx: p.x - g.start.x, dy: p.y - g.start.y,
                                                 vx: (p.x - g.previous.x) / dt, vy: (p.y - g.previous.y) / dt }));
  if (r) log(`swipe → ${r.outcome}`);
});
$("screen").addEventListener("pointercancel", () => {
  if (gesture && gesture.swiping) act(connection.call("swipe", { phase: "cancelled", dx: 0, dy: 0 }));
  gesture = null;
});

// MARK: Answers: buttons, keys and focus

/** The values of the inputs drawn in a content layer: field id → what is typed there. */
function fieldValues(el) {
  const fields = {};
  if (el) for (const input of el.querySelectorAll("input[data-field]")) fields[input.dataset.field] = input.value;
  return fields;
}

/** A button was clicked: `activate` with the dialog's field values. */
function activate(id, action, el) {
  act(connection.call("activate", { id, action, fields: fieldValues(el) }).then((r) => {
    log(`activate ${id} ${action}${r.dismissed ? " → dismissed" : ""}`);
  }));
}

// Escape and Enter anywhere but the control panel go to the entry that takes input, with
// its field values (a focused button takes Enter itself, as a click).
document.addEventListener("keydown", (e) => {
  const key = { Escape: "escape", Enter: "enter" }[e.key];
  const target = e.target instanceof Element ? e.target : document.body;
  if (!key || e.isComposing || target.closest("#panel") || (key === "enter" && target.closest("button"))) return;
  const top = topEntry();
  if (!top) return;
  e.preventDefault();
  const fields = fieldValues(layerElements.get(top.id + "\u0000content"));
  act(connection.call("key", { key, fields }).then((r) => {
    log(`key ${key} → ${r.handled ? (r.action || "dismissed") + " " + r.id : "not handled"}`);
  }));
});

/** Tells the daemon which field of entry `id` has focus (null: none), once per change. */
function focusChanged(id, field) {
  const last = viewer.focus;
  if (last ? last.id === id && last.field === field : field === null) return;
  // Leaving or gone: its countdown no longer matters, and the daemon may not know it any more.
  if (!viewer.entries.some((e) => e.id === id && (e.state === "presenting" || e.state === "presented"))) return;
  const sent = (viewer.focus = { id, field, answered: false });
  act(connection.call("focus", { id, field }).then(() => { sent.answered = true; }));
}
$("screen").addEventListener("focusin", (e) => {
  const input = e.target.closest("input[data-field]");
  if (input && !redrawing) focusChanged(input.dataset.entry, input.dataset.field);
});
$("screen").addEventListener("focusout", (e) => {
  const input = e.target.closest("input[data-field]");
  if (!input || redrawing) return;
  const next = e.relatedTarget instanceof Element && e.relatedTarget.closest("input[data-field]");
  if (next && next.dataset.entry === input.dataset.entry) return;  // its focusin says which
  focusChanged(input.dataset.entry, null);
});
$("screen").addEventListener("input", (e) => {
  if (e.target.dataset.field) e.target.dataset.edited = "1";  // kept when the content is redrawn
});

window.addEventListener("resize", () => { layoutScreen(); draw(viewer.layers); });

start().catch((e) => {
  $("connection").textContent = "cannot connect: " + (e.message || "the bridge refused");
});
