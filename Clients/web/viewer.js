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
//
// Every output (screen) of the daemon gets a panel of its own, with its own frames, status
// bar, contexts and stack; "main" always exists. Layers are drawn in frame order — the
// normal level, then overlays, then the alert level — and only a modal entry (normal or
// alert level) makes what lies below it inert: an overlay never does. A layer with `clip`
// (an entry in a presentation context) is drawn inside a wrapper that clips it to the
// context, and every context is outlined and labelled. A tap the daemon forwarded to the
// app underneath is marked where it landed.
//
// Two modes. "frames" (the default): the page draws the daemon's `frame` notifications.
// "interpolate" (?mode=interpolate, or the checkbox, which reloads the page with it): the
// render-server model. The page subscribes to `animations` (with lifecycle, stack and
// statusBar) but not to frames, keeps the last payload of each output, and draws every
// layer itself on requestAnimationFrame: base + Σ segments (from + p·(to − from)), with the
// timing curves evaluated as the core does (Sources/PresentCore/Motion: a Bézier's parameter
// solved from x by an 11-point bracket, Newton steps and bisection to 1e-14; a damped spring
// in closed form, an overdamped one moving as critically damped). The daemon's clock:
//   - monotonic: the page estimates the offset between performance.now() and the daemon's
//     time from `hello` (its `time`, taken at the midpoint of the round trip, keeping the
//     sample with the shortest round trip), asked at start and at every refresh (1 s);
//   - manual: time moves only with `advance`, which no notification announces, so the page
//     draws at the latest time it knows — the `time` of hello, of the snapshot, of every
//     animations payload and lifecycle event, of its own advances' results — and, while
//     something moves, asks `hello` for the time again every 50 ms. Between two answers it
//     shows the last time it knows (a manual clock does not run between advances).
// A payload is never drawn before its own `time`. window.presentdViewer.mode says which
// mode, .evaluate(payload, t) computes a payload's layers at t, .layersAt(t, output) those of
// the output's last payload, .daemonTime() the time the page draws at.
"use strict";

// Content without a colour of its own is filled from its id (as presentd.render does).
const PALETTE = ["#0a84ff", "#30d158", "#ff9f0a", "#bf5af2", "#ff375f", "#64d2ff", "#ffd60a", "#5e5ce6"];
const $ = (id) => document.getElementById(id);
const MAIN = "main";
// Drawing order of the levels, bottom to top.
const LEVELS = ["normal", "overlay", "alert"];

/** One screen of the daemon, as last drawn in its panel. */
function makeOutput(name) {
  return {
    name,
    seq: 0,            // the last frame drawn (0: the snapshot)
    time: 0,           // its time
    fps: 60,
    container: { width: 390, height: 844, safeArea: { top: 47 } },
    zoom: 1,
    layers: [],        // as last drawn
    animations: null,  // interpolate mode: the last animations payload (with .compiled)
    drawnFrom: null,   // …the payload last drawn, and whether it was still then (nothing moves any more)
    drawnStill: false,
    entries: [],
    contexts: {},      // name → {x, y, width, height}
    statusBar: { style: "default", hidden: false },
    panel: null,       // its elements: {root, screen, presenter, statusbar, name}
  };
}

const MODE = new URLSearchParams(location.search).get("mode") === "interpolate" ? "interpolate" : "frames";

const viewer = (window.presentdViewer = {
  mode: MODE,        // "frames" or "interpolate" (see the top of this file)
  ready: false,      // subscribed and the snapshot drawn
  clock: null,       // "monotonic" or "manual"
  outputs: new Map(),    // name → output (makeOutput); "main" first
  contents: new Map(),   // entry id → Map(contentRevision → content: string, object or null)
  focus: null,       // the last focus sent: {id, field (null: none), answered}
  failures: [],      // requests the daemon refused, as logged
  taps: [],          // the replies to the taps this page sent: {output, x, y, result}
  forwarded: [],     // the taps among them that fell through to the app: {output, x, y}
  swipes: [],        // the swipe requests this page sent, with the daemon's replies: {output, params, result}
  /** Where output `name`'s container is on the page: CSS pixels of its origin, and pixels per point. */
  geometry(name = MAIN) {
    const output = viewer.outputs.get(name);
    const screen = output.panel.screen;
    const r = screen.getBoundingClientRect();
    return { left: r.left + screen.clientLeft, top: r.top + screen.clientTop, zoom: output.zoom };
  },
  output(name) {
    return viewer.outputs.get(name);
  },
});
// The main output's state, as the page had it before there were several outputs.
for (const field of ["seq", "time", "fps", "container", "zoom", "layers", "animations", "entries", "contexts",
                     "statusBar"]) {
  Object.defineProperty(viewer, field, {
    get: () => viewer.outputs.get(MAIN)[field],
    set: (value) => { viewer.outputs.get(MAIN)[field] = value; },
    enumerable: true,
  });
}

/** `params` for a request about output `name`: `output` is named only when it is not main
 * (the default, and the only screen of a daemon that has no outputs). */
function on(name, params = {}) {
  return name && name !== MAIN ? { ...params, output: name } : params;
}

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

// MARK: Interpolation: the animations topic, evaluated as the core does

// The named Bézier curves (TimingCurve.controlPoints).
const NAMED_CURVES = { easeIn: [0.42, 0, 1, 1], easeOut: [0, 0, 0.58, 1], easeInEaseOut: [0.42, 0, 0.58, 1],
                       default: [0.25, 0.1, 0.25, 1] };
// Order of the animated properties in a segment's offsets.
const PROPERTIES = ["x", "y", "width", "height", "alpha", "scale", "rotation"];

/** A timing curve as the daemon writes it: {kind: "linear"}, {kind: "bezier", x1, y1, x2, y2}
 * or {kind: "spring", mass, stiffness, damping, initialVelocity, duration}. */
function timingOf(json) {
  if (json === "linear") return { kind: "linear" };
  if (json === "system") return { kind: "spring", mass: 3, stiffness: 1000, damping: 500, initialVelocity: 0, duration: 0.5 };
  if (typeof json === "string" && NAMED_CURVES[json]) {
    const [x1, y1, x2, y2] = NAMED_CURVES[json];
    return { kind: "bezier", x1, y1, x2, y2 };
  }
  if (json && Array.isArray(json.bezier) && json.bezier.length === 4) {
    const [x1, y1, x2, y2] = json.bezier;
    return { kind: "bezier", x1, y1, x2, y2 };
  }
  if (json && json.spring) {
    const s = json.spring;
    return { kind: "spring", mass: s.mass, stiffness: s.stiffness, damping: s.damping,
             initialVelocity: s.initialVelocity, duration: Math.max(0, s.duration) };
  }
  throw new Error("unknown timing " + JSON.stringify(json));
}

// Swift's min and max (not Math.min/max, which differ only for NaN and -0, but to be the same).
const swiftMin = (x, y) => (y < x ? y : x);
const swiftMax = (x, y) => (y >= x ? y : x);

/** One coordinate of a Bézier: ((a·t + b)·t + c)·t (CubicBezier.swift's Polynomial). */
function polynomial(p1, p2) {
  const c = 3 * p1;
  const b = 3 * (p2 - p1) - c;
  const a = 1 - c - b;
  return { value: (t) => ((a * t + b) * t + c) * t, derivative: (t) => (3 * a * t + 2 * b) * t + c };
}

/** CubicBezier.parameter(for:): the curve parameter whose x is `x`. */
function bezierParameter(x1, x2, x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const curve = polynomial(x1, x2);
  const step = 1 / 10;
  let lo = 1 - step, hi = 1;
  for (let i = 1; i < 11; i++) {
    if (x <= curve.value(i * step)) { lo = (i - 1) * step; hi = i * step; break; }
  }
  const xlo = curve.value(lo), xhi = curve.value(hi);
  let t = xhi > xlo ? swiftMin(swiftMax(lo + (hi - lo) * (x - xlo) / (xhi - xlo), lo), hi) : lo;
  for (let i = 0; i < 8; i++) {
    const error = curve.value(t) - x;
    if (error === 0) return t;
    if (error < 0) lo = t; else hi = t;
    const slope = curve.derivative(t);
    if (!(slope > 0)) break;
    const next = t - error / slope;
    if (!(next >= lo && next <= hi)) break;
    if (Math.abs(next - t) < 1e-14) return next;
    t = next;
  }
  while (hi - lo > 1e-14) {
    const mid = (lo + hi) / 2;
    if (curve.value(mid) < x) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

/** A Bézier timing function's progress at time fraction x (CubicBezier.value(at:)). */
function bezierValue(b, x) {
  x = swiftMin(swiftMax(x, 0), 1);
  return polynomial(b.y1, b.y2).value(bezierParameter(b.x1, b.x2, x));
}

/** A spring's progress at t (Spring.position(at:)): 0 up to 0, exactly 1 from its duration on. */
function springPosition(s, t) {
  if (t >= s.duration) return 1;
  if (t <= 0) return 0;
  const omega0 = Math.sqrt(s.stiffness / s.mass);
  let beta = s.damping / (2 * s.mass), omega, q;
  const p = -1;
  if (beta >= omega0 * (1 - 1e-12)) {  // critical, or overdamped moving as critical
    omega = 0;
    q = s.initialVelocity - omega0;
    beta = omega0;
  } else {
    omega = Math.sqrt((omega0 - beta) * (omega0 + beta));
    q = (s.initialVelocity - beta) / omega;
  }
  const decay = Math.exp(-beta * t);
  if (decay === 0) return 1;
  return 1 + (omega > 0 ? decay * (p * Math.cos(omega * t) + q * Math.sin(omega * t)) : decay * (p + q * t));
}

/** TimingCurve.progress(at:duration:). */
function timingProgress(timing, elapsed, duration) {
  if (timing.kind === "spring") return springPosition(timing, elapsed);
  if (elapsed >= duration) return 1;
  if (elapsed <= 0) return 0;
  const x = elapsed / duration;
  return timing.kind === "linear" ? x : bezierValue(timing, x);
}

/** Offsets by PROPERTIES (absent: 0). */
function offsets(o) {
  const f = (o && o.frame) || {};
  return [f.x, f.y, f.width, f.height, o && o.alpha, o && o.scale, o && o.rotation].map((v) => v || 0);
}

/** A payload's layers with their segments read once: base values and segments by property. */
function compile(payload) {
  if (!payload.compiled) {
    payload.compiled = (payload.layers || []).map((l) => {
      const layer = { ...l };
      delete layer.segments;
      return {
        layer,
        base: [l.frame.x, l.frame.y, l.frame.width, l.frame.height, l.alpha, l.scale, l.rotation],
        segments: (l.segments || []).map((s) => {
          const timing = timingOf(s.timing);
          // Animation.init: a spring runs for its own duration.
          const duration = Math.max(0, timing.kind === "spring" ? timing.duration : s.duration);
          return { start: s.start, duration, end: s.start + duration, timing, from: offsets(s.from), to: offsets(s.to) };
        }),
      };
    });
  }
  return payload.compiled;
}

/** The layers of an animations payload at time t, as a frame at t would carry them. */
function evaluate(payload, t) {
  return compile(payload).map(({ layer, base, segments }) => {
    const c = base.slice();
    for (const s of segments) {
      const done = t >= s.end;  // Animation.value: `to` from the end on
      let p = 1;
      if (!done) p = s.duration > 0 ? timingProgress(s.timing, swiftMax(0, t - s.start), s.duration) : (t >= s.start ? 1 : 0);
      for (let k = 0; k < 7; k++) c[k] += done ? s.to[k] : s.from[k] + p * (s.to[k] - s.from[k]);
    }
    return { ...layer, frame: { ...layer.frame, x: c[0], y: c[1], width: c[2], height: c[3] }, alpha: c[4], scale: c[5],
             rotation: c[6] };
  });
}

/** Whether a segment of the payload still runs at t. */
const moving = (payload, t) => compile(payload).some((l) => l.segments.some((s) => t < s.end));

// The daemon's clock, as the page knows it (see the top of this file).
const clock = { manual: false, known: 0, offset: 0, roundTrip: Infinity, asking: null, askedAt: -Infinity };

function learnTime(t) {
  if (typeof t === "number" && t > clock.known) clock.known = t;
}

function daemonTime() {
  return clock.manual ? clock.known : performance.now() / 1000 + clock.offset;
}

/** Asks the daemon what time it is (hello), once at a time. */
function askTime() {
  if (clock.asking) return clock.asking;
  const sent = performance.now();
  clock.askedAt = sent;
  clock.asking = connection.call("hello", { client: "presentd-web-viewer", protocol: 1 }).then((hello) => {
    const back = performance.now();
    if (clock.manual) {
      learnTime(hello.time);
    } else if (back - sent <= clock.roundTrip * 2 + 1) {  // a slow answer says less about when it was
      clock.offset = hello.time - (sent + back) / 2000;
      clock.roundTrip = Math.min(clock.roundTrip, back - sent);
    }
  }).catch((e) => log("hello: " + e.message)).finally(() => { clock.asking = null; });
  return clock.asking;
}

/** Output's last animations payload (a notification, or its part of the snapshot). */
function setAnimations(output, payload) {
  if (!payload || !Array.isArray(payload.layers)) return;
  try {
    compile(payload);
  } catch (e) {
    return log("animations: " + e.message);
  }
  output.animations = payload;
  learnTime(payload.time);
}

/** Interpolate mode: draws every output from its last payload at the daemon's time. */
function animate() {
  requestAnimationFrame(animate);
  if (!viewer.ready) return;
  const now = daemonTime();
  let anyMoving = false, drew = false;
  for (const output of viewer.outputs.values()) {
    const a = output.animations;
    if (!a || (output.drawnFrom === a && output.drawnStill)) continue;
    drew = true;
    const t = Math.max(now, a.time);
    draw(output, evaluate(a, t));
    output.time = t;
    output.drawnFrom = a;
    output.drawnStill = !moving(a, t);
    anyMoving = anyMoving || !output.drawnStill;
  }
  if (clock.manual && anyMoving && performance.now() - clock.askedAt > 50) askTime();
  if (drew) showClock();
}

Object.assign(viewer, {
  evaluate,
  /** Output `name`'s layers at t, from its last animations payload (null: none yet). */
  layersAt(t, name = MAIN) {
    const output = viewer.outputs.get(name);
    return output && output.animations ? evaluate(output.animations, t) : null;
  },
  daemonTime,
  timingProgress: (json, elapsed, duration) => timingProgress(timingOf(json), elapsed, duration),
});

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

// MARK: Drawing

const layerElements = new Map();   // entry id + role → its element (ids are unique across outputs)
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

/** The panel of output `name`: main's is in the page; the others are made from the template
 * (and taken away with their output). */
function panelFor(output) {
  if (output.panel) return output.panel;
  let root;
  if (output.name === MAIN) {
    root = document.querySelector('.output[data-output="main"]');
  } else {
    root = $("output-template").content.firstElementChild.cloneNode(true);
    root.dataset.output = output.name;
    $("outputs").appendChild(root);
  }
  const panel = (output.panel = {
    root, screen: root.querySelector(".screen"), presenter: root.querySelector(".presenter"),
    statusbar: root.querySelector(".statusbar"), name: root.querySelector(".output-name"),
  });
  panel.screen.dataset.output = output.name;
  listen(output, panel.screen);
  return panel;
}

/** The output named `name`, made (with its panel) when it is new: the panels share the stage
 * anew, and the daemon is asked what the new one's container is. */
function outputNamed(name) {
  let output = viewer.outputs.get(name);
  if (!output) {
    viewer.outputs.set(name, (output = makeOutput(name)));
    gone.delete(name);
    panelFor(output);
    if (viewer.ready) {
      layoutAll();
      drawOutputChoices();
      refresh();
    }
  }
  return output;
}

// Outputs the daemon no longer lists: a notification about one that was still on its way
// does not bring its panel back (until the daemon lists it again).
const gone = new Set();

function removeOutput(name) {
  const output = viewer.outputs.get(name);
  if (!output || name === MAIN) return;
  gone.add(name);
  for (const [key, el] of layerElements) {
    if (el.presentdOutput === name) layerElements.delete(key);
  }
  output.panel.root.remove();
  viewer.outputs.delete(name);
  drawStack();
  drawOutputChoices();
  layoutAll();
}

function layoutAll() {
  for (const output of viewer.outputs.values()) {
    layoutScreen(output);
    draw(output, output.layers);
  }
}

/** Sizes the panel to its container, zoomed so that every output's panel fits side by side. */
function layoutScreen(output) {
  const c = output.container;
  const { screen, presenter, statusbar, name } = panelFor(output);
  const stage = $("stage");
  const share = stage.clientWidth / Math.max(1, viewer.outputs.size);
  output.zoom = Math.max(0.05, Math.min(1, (stage.clientHeight - 110) / c.height, (share - 60) / c.width));
  screen.style.width = c.width * output.zoom + "px";
  screen.style.height = c.height * output.zoom + "px";
  const top = ((c.safeArea && c.safeArea.top) || 0) * output.zoom;
  presenter.style.transform = `scale(${output.zoom})`;
  presenter.style.transformOrigin = "0 0";
  presenter.style.width = c.width + "px";
  presenter.style.height = c.height + "px";
  presenter.innerHTML = `<div style="height:${top / output.zoom + 8}px"></div><h3>Presenter</h3>`;
  for (let y = 120; y < c.height; y += 60) presenter.insertAdjacentHTML("beforeend", '<div class="row"></div>');
  statusbar.style.height = Math.max(20, top) + "px";
  statusbar.style.fontSize = 16 * output.zoom + "px";
  name.textContent = `${output.name} · ${c.width}×${c.height} · ${output.fps} fps`;
  drawContexts(output);
}

function drawStatusBar(output) {
  const bar = panelFor(output).statusbar;
  bar.hidden = !!output.statusBar.hidden;
  bar.classList.toggle("light", output.statusBar.style === "lightContent");
}

/** Every context of the output, outlined and labelled with its name (above the layers, and
 * letting taps through to the screen). */
function drawContexts(output) {
  const { screen } = panelFor(output);
  const z = output.zoom;
  const names = new Set(Object.keys(output.contexts || {}));
  for (const el of screen.querySelectorAll(":scope > .context")) {
    if (!names.has(el.dataset.name)) el.remove();
  }
  for (const name of names) {
    const r = output.contexts[name];
    let el = [...screen.querySelectorAll(":scope > .context")].find((e) => e.dataset.name === name);
    if (!el) {
      el = element("div", "context");
      el.dataset.name = name;
      el.appendChild(element("span", "context-label", name));
      screen.insertBefore(el, panelFor(output).statusbar);
    }
    Object.assign(el.style, { left: r.x * z + "px", top: r.y * z + "px", width: r.width * z + "px",
                              height: r.height * z + "px" });
    el.title = `context ${name}: ${r.x},${r.y} ${r.width}×${r.height}`;
  }
  if (output.name === MAIN) drawContextChoices();
}

/** The contexts main has, offered to the present form. */
function drawContextChoices() {
  const select = $("context");
  const chosen = select.value;
  select.replaceChildren(element("option", "", "(none)"));
  select.firstChild.value = "";
  for (const name of Object.keys(viewer.contexts).sort()) select.appendChild(element("option", "", name));
  select.value = Object.keys(viewer.contexts).includes(chosen) ? chosen : "";
}

/** Marks, for a moment, where a tap fell through to the app underneath. */
function showForwarded(output, x, y) {
  const z = output.zoom;
  const mark = element("div", "forwarded");
  mark.appendChild(element("span", "", "forwarded to the app"));
  mark.style.left = x * z + "px";
  mark.style.top = y * z + "px";
  panelFor(output).screen.insertBefore(mark, panelFor(output).statusbar);
  setTimeout(() => mark.remove(), 1500);
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
    const overlay = el.dataset.level === "overlay";  // a banner or toast: not modal
    if (!overlay) el.setAttribute("aria-modal", "true");
    el.classList.toggle("rich", isRich(content));
    el.style.background = isRich(content) ? "" : contentColor(id, content);
    if (isRich(content)) {
      drawDialog(el, id, content, typed);
    } else {
      const label = typeof content === "string" && !content.startsWith("#") ? content : id;
      el.appendChild(element("span", "label", label));
      el.setAttribute("role", overlay ? "status" : "dialog");
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
  body.style.transform = `scale(${el.presentdZoom || 1})`;
}

/** Draws output's layers bottom to top: frame, alpha, scale about the centre, rotation about
 * the vertical axis, corner radius, shadow, colour and blur; a content layer's inside when
 * its revision changes. A layer with `clip` goes in a wrapper as large as the clip rectangle
 * that hides what is outside it (with the screen's perspective, so a flip looks the same). */
function draw(output, layers) {
  const z = output.zoom;
  const { screen, statusbar } = panelFor(output);
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
      el.dataset.level = l.level || "normal";
      el.presentdOutput = output.name;
      if (l.role === "grabber") el.setAttribute("aria-hidden", "true");  // drawn for the eye; drags work anywhere
      layerElements.set(key, el);
    }
    const f = l.frame;
    const c = l.clip;
    const origin = c ? { x: c.x, y: c.y } : { x: 0, y: 0 };
    placeLayer(el, screen, statusbar, c, z, output.container, index);
    Object.assign(el.style, {
      left: (f.x - origin.x) * z + "px", top: (f.y - origin.y) * z + "px",
      width: f.width * z + "px", height: f.height * z + "px",
      zIndex: String(10 + index), opacity: String(l.alpha), borderRadius: l.cornerRadius * z + "px",
      transform: `scale(${l.scale}) rotateY(${l.rotation}rad)`,
    });
    if (l.role === "dimming") {
      el.style.background = l.color || "#000000";
      el.style.backdropFilter = l.blur ? `blur(${12 * z}px)` : "";
    } else if (l.role === "grabber") {
      // A sheet's grabber: a bar in its colour (translucent, #rrggbbaa) over the content,
      // which the frame places; nothing to draw inside it.
      el.style.background = rgba(l.color || "#3d3d424d", 1);
    } else {
      el.presentdFrame = f;
      el.presentdZoom = z;
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
    if (el.presentdOutput === output.name && !seen.has(key)) {
      (el.parentElement && el.parentElement.classList.contains("clip") ? el.parentElement : el).remove();
      layerElements.delete(key);
    }
  }
  output.layers = layers;
  applyModality(output);
}

/** Puts the layer straight on the screen, or (with a clip rectangle) in its clipping wrapper,
 * at its place in the drawing order. */
function placeLayer(el, screen, statusbar, clip, z, container, index) {
  const wrapped = el.parentElement && el.parentElement.classList.contains("clip");
  if (!clip) {
    if (wrapped) {
      const wrapper = el.parentElement;
      screen.insertBefore(el, statusbar);
      wrapper.remove();
    } else if (el.parentElement !== screen) {
      screen.insertBefore(el, statusbar);
    }
    return;
  }
  let wrapper = wrapped ? el.parentElement : null;
  if (!wrapper) {
    wrapper = element("div", "clip");
    wrapper.dataset.id = el.dataset.id;
    wrapper.dataset.role = el.dataset.role;
    screen.insertBefore(wrapper, statusbar);
    wrapper.appendChild(el);
  }
  Object.assign(wrapper.style, {
    left: clip.x * z + "px", top: clip.y * z + "px", width: clip.width * z + "px", height: clip.height * z + "px",
    zIndex: String(10 + index),
    perspectiveOrigin: `${(container.width / 2 - clip.x) * z}px ${(container.height / 2 - clip.y) * z}px`,
  });
}

const isLive = (e) => e.state === "presenting" || e.state === "presented";
const levelOf = (e) => Math.max(0, LEVELS.indexOf(e.level || "normal"));

/** The output's entries in drawing order: by level, then as the stack lists them. */
function drawingOrder(output) {
  return output.entries.map((e, i) => ({ e, i })).sort((a, b) => levelOf(a.e) - levelOf(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

/** The modal entry that takes input on the output: the top of the alert level, else of the
 * normal one (not queued or leaving). Overlays are never modal. */
function modalEntry(output) {
  return drawingOrder(output).filter((e) => isLive(e) && e.level !== "overlay").pop();
}

/** The entry that keys go to (as `key` picks it): the modal one, else the newest overlay. */
function topEntry(output = viewer.outputs.get(MAIN)) {
  return modalEntry(output) || drawingOrder(output).filter((e) => isLive(e) && e.level === "overlay").pop();
}

/** What a modal entry covers is inert: every entry below it in the drawing order, the
 * presenter too, and any entry that is leaving. An entry with `interaction: forward` is no
 * exception: taps on its dimming pass through to the app, but it still takes the keys, and
 * it is drawn as a modal. Overlays make nothing inert, and above a normal-level modal they
 * still take input. */
function applyModality(output) {
  const modal = modalEntry(output);
  const order = drawingOrder(output);
  const below = modal ? order.indexOf(modal) : -1;
  panelFor(output).presenter.inert = !!modal;
  for (const el of layerElements.values()) {
    if (el.presentdOutput !== output.name) continue;
    const at = order.findIndex((e) => e.id === el.dataset.id);
    const inert = at < 0 || !isLive(order[at]) || at < below;
    if (inert && !el.inert && el.contains(document.activeElement)) document.activeElement.blur();  // says so
    el.inert = inert;
  }
}

/** The output's stack changed: its entries and their content. */
function setEntries(output, entries) {
  output.entries = entries;
  for (const e of entries) storeContent(e.id, e.contentRevision, e.content);
  const present = new Set();
  for (const o of viewer.outputs.values()) for (const e of o.entries) present.add(e.id);
  for (const id of viewer.contents.keys()) if (!present.has(id)) viewer.contents.delete(id);
  if (viewer.focus && !present.has(viewer.focus.id)) viewer.focus = null;
  drawStack();
  applyModality(output);
}

function setContexts(output, contexts) {
  if (!contexts || JSON.stringify(contexts) === JSON.stringify(output.contexts)) return;
  output.contexts = contexts;
  drawContexts(output);
}

/** Every output's entries, listed (with the output's name when there are several). */
function drawStack() {
  $("stack").innerHTML = "";
  const several = viewer.outputs.size > 1;
  for (const output of viewer.outputs.values()) {
    for (const e of output.entries) {
      const li = document.createElement("li");
      const style = typeof e.style === "string" ? e.style : e.style.type;
      const where = [e.level && e.level !== "normal" ? e.level : null, e.position, e.context && "in " + e.context]
        .filter(Boolean).join(" ");
      const detent = e.detent ? " at " + e.detent : "";  // a sheet's
      li.textContent = `${several ? output.name + ": " : ""}${e.id} · ${style}${detent}${where ? " · " + where : ""} · ${e.state}`;
      li.title = "click to dismiss";
      li.onclick = () => act(connection.call("dismiss", { id: e.id }));
      $("stack").appendChild(li);
    }
  }
}

function log(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("log").prepend(li);
  while ($("log").children.length > 80) $("log").lastChild.remove();
}

function showClock() {
  const main = viewer.outputs.get(MAIN);
  const others = [...viewer.outputs.values()].filter((o) => o.name !== MAIN).map((o) => ` · ${o.name} ${o.seq}`);
  const what = MODE === "interpolate" ? `animations ${main.animations ? main.animations.seq || 0 : 0}` : `frame ${main.seq}`;
  $("clock-readout").textContent = `${viewer.clock} clock · t = ${main.time.toFixed(3)} s · ${what}${others.join("")}`;
}

// MARK: The connection

const connection = new Connection(`ws://${location.host}/ws`);

/** Which output a notification is about (none named: main). */
const outputOf = (p) => outputNamed(typeof p.output === "string" ? p.output : MAIN);

connection.onNotification = (method, p) => {
  if (typeof p.output === "string" && gone.has(p.output) && method !== "lifecycle") return;
  switch (method) {
    case "animations":  // interpolate mode: drawn on the next animation frame
      setAnimations(outputOf(p), p);
      break;
    case "frame": {
      const output = outputOf(p);
      output.seq = p.seq;
      output.time = p.time;
      draw(output, p.layers);
      showClock();
      break;
    }
    case "stack":
      if (typeof p.output === "string") {
        setEntries(outputOf(p), p.entries);
        setContexts(outputOf(p), p.contexts);
      } else {
        // Every output's entries at once, each naming its output (none: main).
        const byOutput = new Map([...viewer.outputs.keys()].map((name) => [name, []]));
        for (const e of p.entries) {
          const name = typeof e.output === "string" ? e.output : MAIN;
          if (gone.has(name)) continue;
          if (!byOutput.has(name)) byOutput.set(name, []);
          byOutput.get(name).push(e);
        }
        for (const [name, entries] of byOutput) setEntries(outputNamed(name), entries);
        if (p.contexts) setContexts(viewer.outputs.get(MAIN), p.contexts);
      }
      refresh();  // the notification may not say what the contexts are now
      break;
    case "statusBar": {
      const output = outputOf(p);
      output.statusBar = { style: p.style, hidden: p.hidden };
      drawStatusBar(output);
      log(`statusBar${p.output ? " " + p.output : ""} ${p.style}${p.hidden ? " hidden" : ""}`);
      break;
    }
    case "lifecycle":
      learnTime(p.time);
      if (p.event === "willPresent" || p.event === "updated" || p.event === "adapted") {
        storeContent(p.id, p.contentRevision, p.content);
      } else if (p.event === "didDismiss") {
        viewer.contents.delete(p.id);
      }
      log(`${p.event} ${p.id}${p.detent ? " → " + p.detent : ""}${p.output && p.output !== MAIN ? " on " + p.output : ""}` +
          `${p.reason ? " (" + p.reason + ")" : ""} at ${p.time.toFixed(3)}`);
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

/** One output's part of the subscribe snapshot. */
function applySnapshot(output, s) {
  if (s.container) output.container = s.container;
  if (typeof s.fps === "number") output.fps = s.fps;
  if (s.statusBar) output.statusBar = s.statusBar;
  if (typeof s.time === "number") output.time = s.time;
  output.contexts = s.contexts || {};
  layoutScreen(output);
  drawStatusBar(output);
  setEntries(output, s.entries || []);
  if (MODE === "interpolate" && s.animations) {
    setAnimations(output, s.animations);
    draw(output, evaluate(s.animations, Math.max(daemonTime(), s.animations.time)));
  } else {
    draw(output, s.layers || []);
  }
}

// No notification says that a context was defined or an output added or removed while
// nothing moved: the page asks, after each stack notification and every second.
let hasOutputs = true;    // the daemon knows `outputs` (until it says it does not)
let refreshing = null;
function refresh() {
  if (!viewer.ready || refreshing) return refreshing;
  refreshing = (async () => {
    try {
      if (hasOutputs) {
        try {
          const { outputs } = await connection.call("outputs");
          const names = new Set(outputs.map((o) => o.name));
          for (const o of outputs) gone.delete(o.name);
          for (const o of outputs) {
            const output = outputNamed(o.name);
            const changed = JSON.stringify(o.container) !== JSON.stringify(output.container) || o.fps !== output.fps;
            output.container = o.container;
            output.fps = o.fps;
            if (changed) layoutAll();
          }
          for (const name of [...viewer.outputs.keys()]) if (!names.has(name)) removeOutput(name);
          drawOutputChoices();
        } catch (e) {
          if (!/\(-32601\)/.test(e.message)) throw e;
          hasOutputs = false;  // a daemon with one screen
        }
      }
      if (MODE === "interpolate" && !clock.manual) askTime();  // the clock's offset, again
      for (const output of [...viewer.outputs.values()]) {
        const r = await connection.call("stack", on(output.name));
        if (viewer.outputs.get(output.name) === output) setContexts(output, r.contexts || {});
      }
    } catch (e) {
      if (viewer.ready) log("refresh: " + e.message);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The outputs, offered to the present form (main first). */
function drawOutputChoices() {
  const select = $("output");
  const chosen = select.value;
  select.replaceChildren(...[...viewer.outputs.keys()].map((name) => element("option", "", name)));
  select.value = viewer.outputs.has(chosen) ? chosen : MAIN;
  $("output-choice").hidden = viewer.outputs.size < 2;
}

async function start() {
  viewer.outputs.set(MAIN, makeOutput(MAIN));
  panelFor(viewer.outputs.get(MAIN));
  await connection.opened;
  const hello = await connection.call("hello", { client: "presentd-web-viewer", protocol: 1 });
  viewer.clock = hello.clock;
  clock.manual = hello.clock === "manual";
  learnTime(hello.time);
  viewer.outputs.get(MAIN).fps = hello.fps;
  $("manual-controls").hidden = hello.clock !== "manual";
  $("interpolate").checked = MODE === "interpolate";
  let topics = ["frames", "lifecycle", "stack", "statusBar"];
  if (MODE === "interpolate") {
    topics = ["animations", "lifecycle", "stack", "statusBar"];
    if (!clock.manual) await askTime();
  }
  const { snapshot } = await connection.call("subscribe", { topics });
  learnTime(snapshot.time);
  if (Array.isArray(snapshot.outputs)) {
    for (const o of snapshot.outputs) outputNamed(o.name);  // every panel first: they share the stage
    for (const o of snapshot.outputs) applySnapshot(viewer.outputs.get(o.name), { time: snapshot.time, ...o });
  } else {
    applySnapshot(viewer.outputs.get(MAIN), snapshot);
  }
  layoutAll();
  drawStack();
  drawOutputChoices();
  $("connection").textContent = `presentd ${hello.version}, ${hello.fps} fps` +
    (MODE === "interpolate" ? ", interpolating the animations topic" : "");
  showClock();
  viewer.ready = true;
  if (MODE === "interpolate") requestAnimationFrame(animate);
  refresh();
  setInterval(refresh, 1000);
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

/** The output the controls act on. */
const chosenOutput = () => viewer.outputs.get($("output").value) || viewer.outputs.get(MAIN);

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
  if ($("level").value !== "normal") p.level = $("level").value;
  if ($("level").value === "overlay") {
    p.position = $("position").value;
    delete p.dismissOnTap;  // an overlay takes only taps on itself
  } else if ($("interaction").value) {
    p.interaction = $("interaction").value;
  }
  if ($("context").value) p.context = $("context").value;
  return on(chosenOutput().name, p);
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
  const top = topEntry(chosenOutput());
  if (top) act(connection.call("dismiss", { id: top.id }));
};
$("dismiss-all").onclick = () => act(connection.call("dismissAll", {}));

// Contexts of main: name and "x y width height".
$("define-context").onclick = () => {
  const [x, y, width, height] = $("context-frame").value.trim().split(/[\s,×x]+/).map(Number);
  act(connection.call("defineContext", on(chosenOutput().name, { name: $("context-name").value,
                                                                  frame: { x, y, width, height } }))
    .then((r) => r && setContexts(chosenOutput(), r.contexts)));
};
$("remove-context").onclick = () => act(connection.call("removeContext", { name: $("context-name").value })
  .then(() => refresh()));

function resize(output, width, height) {
  act(connection.call("setContainer", on(output.name, { width, height, duration: 0.3 })).then((r) => {
    if (!r) return;
    output.container = r.container;
    layoutAll();
  }));
}
$("portrait").onclick = () => {
  const o = chosenOutput(), c = o.container;
  resize(o, Math.min(c.width, c.height), Math.max(c.width, c.height));
};
$("landscape").onclick = () => {
  const o = chosenOutput(), c = o.container;
  resize(o, Math.max(c.width, c.height), Math.min(c.width, c.height));
};
$("keyboard").onclick = () => {
  const o = chosenOutput(), height = o.container.keyboardHeight > 0 ? 0 : 336;
  act(connection.call("keyboard", on(o.name, { height })).then(() => { o.container.keyboardHeight = height; }));
};

// The mode: the page again, with or without ?mode=interpolate.
$("interpolate").onchange = () => {
  const params = new URLSearchParams(location.search);
  if ($("interpolate").checked) params.set("mode", "interpolate"); else params.delete("mode");
  location.search = params.toString();
};

// The manual clock: step it, or let it follow the browser's own clock. (Its answers say the
// time, which interpolate mode draws at.)
const advance = (seconds) => connection.call("advance", { seconds }).then((r) => { learnTime(r && r.time); return r; });
$("step-frame").onclick = () => act(advance(1 / viewer.fps));
$("step-tenth").onclick = () => act(advance(0.1));
let playing = false;
$("play").onclick = () => {
  playing = !playing;
  $("play").textContent = playing ? "Pause" : "Play";
  let last = performance.now();
  const tick = async (now) => {
    if (!playing) return;
    await act(advance(Math.min(0.1, (now - last) / 1000)));
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

// Taps and swipes on a screen, in its container's points.
let gesture = null;
function point(output, e) {
  const g = viewer.geometry(output.name);
  return { x: (e.clientX - g.left) / g.zoom, y: (e.clientY - g.top) / g.zoom, t: e.timeStamp };
}

/** What a tap's reply says, for the log. */
function describeTap(r) {
  if (r.forwarded) return "forwarded to the app";
  const who = r.id ? ` ${r.id}${r.level && r.level !== "normal" ? " (" + r.level + ")" : ""}` : "";
  return `${r.part}${who}${r.dismissed ? " dismissed" : ""}`;
}

/** One step of a swipe on output's screen, kept with its reply in viewer.swipes (null:
 * refused, and logged). A sheet's drag moves it between its detents: `settled` names the
 * detent it springs to. */
async function swipe(output, params) {
  const entry = { output: output.name, params, result: null };
  viewer.swipes.push(entry);
  entry.result = (await act(connection.call("swipe", on(output.name, params)))) || null;
  return entry.result;
}

/** The pointer on output's screen: a click taps, a drag swipes (the translation since the
 * pointer went down, and on release the velocity between its last two moves, in points
 * per second). */
function listen(output, screen) {
  screen.addEventListener("pointerdown", (e) => {
    if (e.target.closest(".layer.content button, .layer.content input")) return;  // a control's own
    const p = point(output, e);
    gesture = { output, start: p, last: p, previous: p, swiping: false };
    screen.setPointerCapture(e.pointerId);
  });
  screen.addEventListener("pointermove", (e) => {
    if (!gesture || gesture.output !== output) return;
    const p = point(output, e);
    const dx = p.x - gesture.start.x, dy = p.y - gesture.start.y;
    if (!gesture.swiping && Math.hypot(dx, dy) > 6) {
      gesture.swiping = true;
      swipe(output, { phase: "began", dx: 0, dy: 0 });
    }
    if (gesture.swiping) swipe(output, { phase: "changed", dx, dy });
    gesture.previous = gesture.last;
    gesture.last = p;
  });
  screen.addEventListener("pointerup", async (e) => {
    if (!gesture || gesture.output !== output) return;
    const p = point(output, e), g = gesture;
    gesture = null;
    if (!g.swiping) {
      const r = await act(connection.call("tap", on(output.name, { x: p.x, y: p.y })));
      if (!r) return;
      viewer.taps.push({ output: output.name, x: p.x, y: p.y, result: r });
      if (r.forwarded) {
        viewer.forwarded.push({ output: output.name, x: p.x, y: p.y });
        showForwarded(output, p.x, p.y);
      }
      log(`tap${output.name !== MAIN ? " " + output.name : ""} ${p.x.toFixed(0)},${p.y.toFixed(0)} → ${describeTap(r)}`);
      return;
    }
    const dt = Math.max(1, p.t - g.previous.t) / 1000;
    const r = await swipe(output, { phase: "ended", dx: p.x - g.start.x, dy: p.y - g.start.y,
                                    vx: (p.x - g.previous.x) / dt, vy: (p.y - g.previous.y) / dt });
    if (r) log(`swipe → ${r.outcome}${r.detent ? " at " + r.detent : ""}`);
  });
  screen.addEventListener("pointercancel", () => {
    if (gesture && gesture.output === output && gesture.swiping) {
      swipe(output, { phase: "cancelled", dx: 0, dy: 0 });
    }
    gesture = null;
  });
  screen.addEventListener("focusin", (e) => {
    const input = e.target.closest("input[data-field]");
    if (input && !redrawing) focusChanged(input.dataset.entry, input.dataset.field);
  });
  screen.addEventListener("focusout", (e) => {
    const input = e.target.closest("input[data-field]");
    if (!input || redrawing) return;
    const next = e.relatedTarget instanceof Element && e.relatedTarget.closest("input[data-field]");
    if (next && next.dataset.entry === input.dataset.entry) return;  // its focusin says which
    focusChanged(input.dataset.entry, null);
  });
  screen.addEventListener("input", (e) => {
    if (e.target.dataset.field) e.target.dataset.edited = "1";  // kept when the content is redrawn
  });
}

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

// Escape and Enter anywhere but the control panel go to the entry that takes input on the
// output they were typed on (main, outside every screen), with its field values (a focused
// button takes Enter itself, as a click).
document.addEventListener("keydown", (e) => {
  const key = { Escape: "escape", Enter: "enter" }[e.key];
  const target = e.target instanceof Element ? e.target : document.body;
  if (!key || e.isComposing || target.closest("#panel") || (key === "enter" && target.closest("button"))) return;
  const screen = target.closest(".screen");
  const output = viewer.outputs.get(screen ? screen.dataset.output : MAIN);
  const top = output && topEntry(output);
  if (!top) return;
  e.preventDefault();
  const fields = fieldValues(layerElements.get(top.id + "\u0000content"));
  act(connection.call("key", on(output.name, { key, fields })).then((r) => {
    log(`key ${key} → ${r.handled ? (r.action || "dismissed") + " " + r.id : "not handled"}`);
  }));
});

/** Tells the daemon which field of entry `id` has focus (null: none), once per change. */
function focusChanged(id, field) {
  const last = viewer.focus;
  if (last ? last.id === id && last.field === field : field === null) return;
  // Leaving or gone: its countdown no longer matters, and the daemon may not know it any more.
  const live = [...viewer.outputs.values()].some((o) => o.entries.some((e) => e.id === id && isLive(e)));
  if (!live) return;
  const sent = (viewer.focus = { id, field, answered: false });
  act(connection.call("focus", { id, field }).then(() => { sent.answered = true; }));
}

window.addEventListener("resize", layoutAll);

start().catch((e) => {
  $("connection").textContent = "cannot connect: " + (e.message || "the bridge refused");
});
