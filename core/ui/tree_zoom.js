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
    if (event.key === "+" || event.key === "=") zoom.zoomIn();
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
  const onPress = () => frame.focus({ preventScroll: true });
  frame.addEventListener("wheel", onWheel, { passive: false });
  frame.addEventListener("keydown", onKey);
  frame.addEventListener("pointerdown", onPress);
  Object.assign(state, { svg, frame, zoom, onWheel, onKey, onPress });
}

function detach(state) {
  if (!state.zoom) return;
  state.frame.removeEventListener("wheel", state.onWheel);
  state.frame.removeEventListener("keydown", state.onKey);
  state.frame.removeEventListener("pointerdown", state.onPress);
  state.zoom.destroy();
  state.svg.style.transform = "";
  Object.assign(state, { svg: null, frame: null, zoom: null });
}

export default function ({ parentElement, data }) {
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
  };
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
  return () => {
    watcher.disconnect();
    listeners.forEach(([button, listener]) => button.removeEventListener("click", listener));
    detach(state);
  };
}
