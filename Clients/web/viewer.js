// The presentd viewer: draws the daemon's live modal stack from its frame stream, the
// way a renderer would, and offers controls to present, dismiss, tap and swipe.
// It speaks JSON-RPC 2.0 over a WebSocket that `python -m presentd.web` relays to the
// daemon's socket (one message per line). State for tests: window.presentdViewer.
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

// MARK: Drawing

const layerElements = new Map();

function contentColor(layer) {
  if (layer.content && /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(layer.content)) return layer.content;
  let hash = 0;
  for (const c of layer.id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
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

/** Draws layers bottom to top: frame, alpha, scale about the centre, rotation about the
 * vertical axis, corner radius, shadow, colour and blur. */
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
      if (l.role === "content") el.innerHTML = '<span class="label"></span>';
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
      el.style.background = contentColor(l);
      const s = l.shadow;
      el.style.boxShadow = s ? `${s.offset.x * z}px ${s.offset.y * z}px ${s.radius * z}px ${rgba(s.color, s.opacity)}` : "";
      el.classList.toggle("back", Math.cos(l.rotation) < 0);
      el.classList.toggle("tint-dimmed", !!l.tintDimmed);
      const label = el.firstChild;
      label.textContent = l.content && !l.content.startsWith("#") ? l.content : l.id;
      label.style.fontSize = 18 * z + "px";
    }
  });
  for (const [key, el] of layerElements) {
    if (!seen.has(key)) {
      el.remove();
      layerElements.delete(key);
    }
  }
  viewer.layers = layers;
}

function drawStack(entries) {
  viewer.entries = entries;
  $("stack").innerHTML = "";
  for (const e of entries) {
    const li = document.createElement("li");
    li.textContent = `${e.id} · ${typeof e.style === "string" ? e.style : e.style.type} · ${e.state}`;
    li.title = "click to dismiss";
    li.onclick = () => act(connection.call("dismiss", { id: e.id }));
    $("stack").appendChild(li);
  }
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
      drawStack(p.entries);
      break;
    case "statusBar":
      viewer.statusBar = { style: p.style, hidden: p.hidden };
      drawStatusBar();
      log(`statusBar ${p.style}${p.hidden ? " hidden" : ""}`);
      break;
    case "lifecycle":
      log(`${p.event} ${p.id}${p.reason ? " (" + p.reason + ")" : ""} at ${p.time.toFixed(3)}`);
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
  draw(snapshot.layers);
  drawStack(snapshot.entries);
  $("connection").textContent = `presentd ${hello.version}, ${hello.fps} fps`;
  showClock();
  viewer.ready = true;
}

/** Runs a request, logging its failure instead of throwing. */
async function act(promise) {
  try {
    return await promise;
  } catch (e) {
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
  if ($("content").value) p.content = $("content").value;
  return p;
}

$("present-form").onsubmit = (e) => {
  e.preventDefault();
  act(connection.call("present", presentation()));
};
$("dismiss-top").onclick = () => {
  const top = viewer.entries.filter((e) => e.state !== "queued" && e.state !== "dismissing").pop();
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
window.addEventListener("resize", () => { layoutScreen(); draw(viewer.layers); });

start().catch((e) => {
  $("connection").textContent = "cannot connect: " + (e.message || "the bridge refused");
});
