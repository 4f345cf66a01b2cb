// Zoom and pan for a tree diagram: the SVG Graphviz drew on the server (in a Markdown block)
// or the one st.graphviz_chart laid out in the browser, in the same keyed container as this
// component. Panzoom (vendored next to this file) does the gestures: drag, pinch, wheel.
// We add the buttons, the keyboard, and re-attach whenever the page draws a new tree.
//
// The wheel zooms only once the tree has been clicked (or with Ctrl, which a trackpad's pinch
// sends): otherwise scrolling the page past a tree would zoom it instead.

const Panzoom = globalThis.Panzoom;

const DIAGRAM = ".arboretum-svg svg, [data-testid='stGraphVizChart'] svg";
const STEP = 0.35; // each button press or key zooms by 35%
const PAN_PX = 60; // each arrow key moves by this much
const FULL_SCREEN_TEXT_PX = 14; // full screen opens with the smallest text this large

// The bar full screen shows: the page's own bar is outside the full-screen element, so the
// frame gets its own while it fills the screen. Panzoom leaves "panzoom-exclude" alone.
const SCREEN_BUTTONS = [
  ["in", "+", "Zoom in (+)"],
  ["out", "−", "Zoom out (-)"],
  ["fit", "Fit", "Fit the whole tree on the screen (0)"],
  ["exit", "Exit full screen", "Exit full screen (Escape)"],
];

// Text px of the drawing as shown: its smallest text is 12 pt of the viewBox.
function textPx(svg) {
  const box = svg.viewBox && svg.viewBox.baseVal;
  if (!box || !box.width) return 12;
  const shown = svg.getBoundingClientRect();
  return (12 * Math.min(shown.width / box.width, shown.height / box.height)) || 12;
}

// The browser's own layout (st.graphviz_chart) gets the box the server's SVG has: fitted to
// the column and at most 70% of the window tall, or, for the whole tree, filling a box that
// tall.
function fitBrowserLayout(svg, frame, whole) {
  if (svg.closest(".arboretum-svg")) return;
  Object.assign(svg.style, whole
    ? { width: "100%", height: "100%" }
    : { width: "100%", height: "auto", maxHeight: "70vh" });
  if (whole) frame.style.height = "70vh";
}

// Where a drawing ``lo..hi`` long (at scale 1, about the element's centre ``c``) must be
// moved, scaled by ``s``, to put ``want`` at ``at`` without leaving a gap inside ``min..max``
// (a drawing smaller than the screen stays centred, as fitted).
function placed(lo, hi, c, s, want, at, min, max) {
  if (s * (hi - lo) <= max - min) return 0;
  const t = (at - c) / s - (want - c);
  return Math.min(Math.max(t, (max - c) / s - (hi - c)), (min - c) / s - (lo - c));
}

// Full screen at a size a class can read: the drawing fitted to the screen is scaled up
// until its smallest text is FULL_SCREEN_TEXT_PX, its top at the top and its root in the
// middle (the tree is read from the root down; the rest is a drag away).
function readableOnScreen(state) {
  const { svg, zoom, frame } = state;
  zoom.reset({ animate: false });
  svg.style.transform = ""; // Panzoom applies the reset at the next frame: measure it now
  const fitted = textPx(svg);
  const scale = Math.max(1, FULL_SCREEN_TEXT_PX / fitted);
  zoom.setOptions({ maxScale: Math.max(4, 2 * scale, 24 / fitted) });
  const shown = svg.getBoundingClientRect();
  const box = svg.viewBox && svg.viewBox.baseVal;
  // The drawing inside the element's box (Graphviz's viewBox keeps its proportions).
  const fit = box && box.width
    ? Math.min(shown.width / box.width, shown.height / box.height)
    : 0;
  const width = fit ? box.width * fit : shown.width;
  const height = fit ? box.height * fit : shown.height;
  const left = shown.left + (shown.width - width) / 2;
  const top = shown.top + (shown.height - height) / 2;
  const root = svg.querySelector("g.node");
  const rootBox = root ? root.getBoundingClientRect() : null;
  const rootX = rootBox ? rootBox.left + rootBox.width / 2 : left + width / 2;
  const screen = frame.getBoundingClientRect();
  const cx = shown.left + shown.width / 2;
  const cy = shown.top + shown.height / 2;
  const x = placed(left, left + width, cx, scale, rootX, screen.left + screen.width / 2,
    screen.left, screen.right);
  const y = placed(top, top + height, cy, scale, top, screen.top + 16, screen.top, screen.bottom);
  zoom.zoom(scale, { animate: false });
  zoom.pan(x, y, { animate: false, force: true });
}

function screenBar(press) {
  const bar = document.createElement("div");
  bar.className = "arboretum-screen-bar panzoom-exclude";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", "Tree diagram zoom");
  for (const [move, text, label] of SCREEN_BUTTONS) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.screenZoom = move;
    button.textContent = text;
    button.title = label;
    button.setAttribute("aria-label", label);
    button.addEventListener("click", () => press[move]());
    bar.appendChild(button);
  }
  return bar;
}

// Entering full screen adds the bar and zooms to readable text; leaving takes the bar away
// and fits the tree back into the page.
function onScreenChange(state, press) {
  if (!state.frame) return;
  if (document.fullscreenElement === state.frame) {
    if (!state.bar) state.bar = state.frame.appendChild(screenBar(press));
    requestAnimationFrame(() => {
      if (!state.zoom) return; // a new tree arrived meanwhile
      readableOnScreen(state);
      state.frame.focus({ preventScroll: true }); // the keys + − 0, arrows and Escape work
    });
  } else if (state.bar) {
    state.bar.remove();
    state.bar = null;
    if (state.zoom) {
      state.zoom.setOptions({ maxScale: state.maxScale });
      state.zoom.reset({ animate: false });
    }
  }
}

function attach(holder, state, whole) {
  const svg = holder.querySelector(DIAGRAM);
  if (!svg || svg === state.svg) return;
  detach(state);
  const frame = svg.parentElement;
  fitBrowserLayout(svg, frame, whole);
  frame.classList.add("arboretum-zoom-frame");
  frame.tabIndex = 0;
  frame.setAttribute("role", "img");
  frame.setAttribute(
    "aria-label",
    "Tree diagram: drag to move, + and - keys or the buttons to zoom, 0 to fit",
  );
  // Zoom until the smallest text reads 24 px, however small the fitted drawing is.
  const maxScale = Math.max(4, 24 / textPx(svg));
  const zoom = Panzoom(svg, { minScale: 1, maxScale, step: STEP, canvas: true });
  state.maxScale = maxScale;
  const onWheel = (event) => {
    if (event.ctrlKey || document.activeElement === frame) zoom.zoomWithWheel(event);
  };
  const onKey = (event) => {
    const moves = {
      ArrowLeft: [PAN_PX, 0],
      ArrowRight: [-PAN_PX, 0],
      ArrowUp: [0, PAN_PX],
      ArrowDown: [0, -PAN_PX],
    };
    if (event.key === "Escape" && document.fullscreenElement) document.exitFullscreen();
    else if (event.key === "+" || event.key === "=") zoom.zoomIn();
    else if (event.key === "-" || event.key === "_") zoom.zoomOut();
    else if (event.key === "0") zoom.reset();
    else if (moves[event.key]) {
      const [x, y] = moves[event.key];
      const scale = zoom.getScale();
      zoom.pan(x / scale, y / scale, { relative: true });
    } else return;
    event.preventDefault();
  };
  // Panzoom's pointerdown cancels the default focus: a click on the tree focuses it here.
  // Full screen's own buttons keep the focus a click gives them.
  const onPress = (event) => {
    if (!event.target.closest(".arboretum-screen-bar")) frame.focus({ preventScroll: true });
  };
  frame.addEventListener("wheel", onWheel, { passive: false });
  frame.addEventListener("keydown", onKey);
  frame.addEventListener("pointerdown", onPress);
  Object.assign(state, { svg, frame, zoom, onWheel, onKey, onPress });
}

function detach(state) {
  if (!state.zoom) return;
  if (state.bar) state.bar.remove();
  state.frame.removeEventListener("wheel", state.onWheel);
  state.frame.removeEventListener("keydown", state.onKey);
  state.frame.removeEventListener("pointerdown", state.onPress);
  state.zoom.destroy();
  state.svg.style.transform = "";
  Object.assign(state, { svg: null, frame: null, zoom: null, bar: null });
}

export default function ({ parentElement, data }) {
  // Streamlit can run this again on the same element without the cleanup of the run before
  // (a rerun that redraws the tree): two Panzooms on one drawing, two listeners per button
  // (one press asked for full screen twice) and two full-screen bars. One at a time.
  if (parentElement.arboretumCleanup) parentElement.arboretumCleanup();
  const holder = parentElement.closest(`.st-key-${data.key}`) || parentElement.parentElement;
  const state = {};
  const press = {
    in: () => state.zoom && state.zoom.zoomIn(),
    out: () => state.zoom && state.zoom.zoomOut(),
    fit: () => state.zoom && state.zoom.reset(),
    screen: () => {
      if (!state.frame) return;
      if (document.fullscreenElement) document.exitFullscreen();
      else state.frame.requestFullscreen().catch(() => {});
    },
    exit: () => document.fullscreenElement && document.exitFullscreen(),
  };
  const onScreen = () => onScreenChange(state, press);
  document.addEventListener("fullscreenchange", onScreen);
  const buttons = [...parentElement.querySelectorAll("button[data-zoom]")];
  const listeners = buttons.map((button) => {
    const listener = () => press[button.dataset.zoom]();
    button.addEventListener("click", listener);
    return [button, listener];
  });
  attach(holder, state, data.whole);
  // A new tree (a slider moved) or the browser's own layout arriving later: attach again.
  const watcher = new MutationObserver(() => attach(holder, state, data.whole));
  watcher.observe(holder, { childList: true, subtree: true });
  const cleanup = () => {
    watcher.disconnect();
    document.removeEventListener("fullscreenchange", onScreen);
    listeners.forEach(([button, listener]) => button.removeEventListener("click", listener));
    detach(state);
    if (parentElement.arboretumCleanup === cleanup) delete parentElement.arboretumCleanup;
  };
  parentElement.arboretumCleanup = cleanup;
  return cleanup;
}
