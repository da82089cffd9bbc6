// Map element for the Soulshards VTT: an SVG hex/square map with tokens, highlights, drag, zoom and pan.
// Plain ES module exporting a Vue options object (no build step); used by vtt/web/map_view.py.
//
// Performance notes: the grid is ONE <path>; every token is its own child component whose object is
// mutated in place, so a patch re-renders one token; drag/pan/zoom state is non-reactive and applied
// straight to the DOM (no Vue render per pointer move).
import { markRaw, ref, toRaw } from "vue";

const SQRT3 = Math.sqrt(3);
// Neighbour across edge i (edge i joins corner i and corner i+1).
const HEX_DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
const SQUARE_DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const DRAG_THRESHOLD = 4;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 6;
// Below this on-screen size of a space (px from its centre to the middle of an edge) token details (names, bars,
// badges) are hidden: the tokens are truly tiny then, and a big map's details are costly to repaint on every
// pan/zoom frame. Above it, name plates are drawn at least NAME_MIN_PX high on screen (scaled up when the zoom
// would make them smaller), so a whole 30 x 20 map on a laptop still shows every name.
const LOD_INNER_PX = 7;
const NAME_MIN_PX = 11;
const NAME_MAX_SCALE = 3;
// On a portrait screen, a fitted map whose spaces would be smaller than this (px, as LOD_INNER_PX) shows the
// tokens' part of the map instead of all of it.
const FIT_READABLE_PX = 12;
// The fitted map starts this far down (px) when the Ruler and ? buttons are shown in its top right corner
// (8 px from the top, 34 px high), so they never cover its top row.
const TOOLS_PX = 50;

const fmt = (v) => String(Math.round(v * 10) / 10);
const cellKey = (q, r) => q + "," + r;

function makeGeometry(grid, cell) {
  if (grid === "square") {
    return markRaw({
      grid,
      cell,
      inner: cell / 2,
      dirs: SQUARE_DIRS,
      center: (x, y) => [(x + 0.5) * cell, (y + 0.5) * cell],
      corners: (x, y) => [
        [x * cell, y * cell],
        [(x + 1) * cell, y * cell],
        [(x + 1) * cell, (y + 1) * cell],
        [x * cell, (y + 1) * cell],
      ],
      pixelToCell: (px, py) => [Math.floor(px / cell), Math.floor(py / cell)],
      inBounds: (x, y, cols, rows) => x >= 0 && y >= 0 && x < cols && y < rows,
      size: (cols, rows) => [cols * cell, rows * cell],
      cells(cols, rows, borderOnly) {
        const out = [];
        for (let y = 0; y < rows; y++) {
          for (let x = 0; x < cols; x++) {
            if (!borderOnly || x === 0 || y === 0 || x === cols - 1 || y === rows - 1) out.push([x, y]);
          }
        }
        return out;
      },
    });
  }
  const w = (cell * SQRT3) / 2;
  const center = (q, r) => [cell * SQRT3 * (q + r / 2) + w, cell * 1.5 * r + cell];
  return markRaw({
    grid: "hex",
    cell,
    inner: w,
    dirs: HEX_DIRS,
    center,
    corners(q, r) {
      const [cx, cy] = center(q, r);
      return [
        [cx + w, cy - cell / 2],
        [cx + w, cy + cell / 2],
        [cx, cy + cell],
        [cx - w, cy + cell / 2],
        [cx - w, cy - cell / 2],
        [cx, cy - cell],
      ];
    },
    pixelToCell(px, py) {
      const x = px - w;
      const y = py - cell;
      const qf = ((SQRT3 / 3) * x - y / 3) / cell;
      const rf = ((2 / 3) * y) / cell;
      const sf = -qf - rf;
      let q = Math.round(qf);
      let r = Math.round(rf);
      const s = Math.round(sf);
      const dq = Math.abs(q - qf);
      const dr = Math.abs(r - rf);
      const ds = Math.abs(s - sf);
      if (dq > dr && dq > ds) q = -r - s;
      else if (dr > ds) r = -q - s;
      return [q + 0, r + 0]; // "+ 0" turns -0 into 0
    },
    inBounds(q, r, cols, rows) {
      const col = q + (r - (r & 1)) / 2;
      return r >= 0 && r < rows && col >= 0 && col < cols;
    },
    size: (cols, rows) => [cell * SQRT3 * (cols + 0.5), cell * (1.5 * rows + 0.5)],
    cells(cols, rows, borderOnly) {
      const out = [];
      for (let r = 0; r < rows; r++) {
        for (let col = 0; col < cols; col++) {
          if (!borderOnly || col === 0 || r === 0 || col === cols - 1 || r === rows - 1) {
            out.push([col - (r - (r & 1)) / 2, r]);
          }
        }
      }
      return out;
    },
  });
}

// SVG path of the outline of the union of `cells`; `has(q, r)` tells whether a cell belongs to the union; `off`
// ([x, y], optional) is subtracted from every point (a path relative to a token's own origin).
function outlinePath(geo, cells, has, off) {
  const [ox, oy] = off || [0, 0];
  const next = new Map();
  // a corner to an eighth of a unit, as one number (a string key cost most of a big map's first outlines); apart
  // for any map under 4 million units high
  const pkey = (p) => Math.round(p[0] * 8) * 67108864 + Math.round(p[1] * 8);
  for (const [q, r] of cells) {
    const cs = geo.corners(q, r);
    for (let i = 0; i < cs.length; i++) {
      const [dq, dr] = geo.dirs[i];
      if (has(q + dq, r + dr)) continue;
      const a = cs[i];
      const b = cs[(i + 1) % cs.length];
      const k = pkey(a);
      if (!next.has(k)) next.set(k, []);
      next.get(k).push([pkey(b), a, b]);
    }
  }
  let d = "";
  while (next.size) {
    const [startKey, list] = next.entries().next().value;
    let k = startKey;
    d += "M" + fmt(list[0][1][0] - ox) + " " + fmt(list[0][1][1] - oy);
    for (let guard = 0; guard < 100000; guard++) {
      const edges = next.get(k);
      if (!edges) break;
      const [endKey, , b] = edges.pop();
      if (!edges.length) next.delete(k);
      k = endKey;
      if (k === startKey) break;
      d += "L" + fmt(b[0] - ox) + " " + fmt(b[1] - oy);
    }
    d += "Z";
  }
  return d;
}

// SVG path of every cell of `cells` as its own closed shape (a tint per space, not an outline of the union).
function cellsPath(geo, cells) {
  let d = "";
  for (const [q, r] of cells) {
    const cs = geo.corners(q, r);
    d += "M" + cs.map(([x, y]) => fmt(x) + " " + fmt(y)).join("L") + "Z";
  }
  return d;
}

const parseCell = (k) => k.split(",").map(Number);

// A chance (0..1) as a whole percentage; never "0%" or "100%" for what may still happen or fail.
function percent(p) {
  const n = Math.round(p * 100);
  if (n <= 0 && p > 0) return "under 1%";
  if (n >= 100 && p < 1) return "over 99%";
  return n + "%";
}

// Whether a space is one of `cells`, by a number for each space (apart for spaces within a million of the origin).
function cellSetOf(cells) {
  const key = (q, r) => Number(q) * 2097152 + Number(r);
  const set = new Set(cells.map(([q, r]) => key(q, r)));
  return (q, r) => set.has(key(q, r));
}

function polygonPoints(corners, center, scale) {
  return corners
    .map(([x, y]) => fmt(center[0] + (x - center[0]) * scale) + "," + fmt(center[1] + (y - center[1]) * scale))
    .join(" ");
}

const OBJECT_STYLES = [
  [/pillar|column|stone|rock|statue|boulder|rubble/i, "#a59d90", "#5b544a"],
  [/tree|bush|plant|hedge|grass/i, "#79935a", "#3f5a2a"],
  [/water|pool|well|river|lake|fountain/i, "#86aacb", "#3f6789"],
  [/fire|brazier|lava|torch/i, "#d98a45", "#7c3f17"],
  [/table|crate|chest|barrel|door|furniture|wood|altar/i, "#ad8456", "#5e4124"],
];

function objectStyle(kind, name) {
  const text = (kind || "") + " " + (name || "");
  for (const [re, fill, stroke] of OBJECT_STYLES) if (re.test(text)) return [fill, stroke];
  return ["#c7b58f", "#786a4d"];
}

function poolOf(value) {
  if (!Array.isArray(value) || value.length < 2) return null;
  const max = Number(value[1]);
  if (!(max > 0)) return null;
  const pips = Math.max(0, Math.min(max, Number(value[0]) || 0));
  return { pips, max };
}

const FONT_FAMILY = '"Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif';

// Width of a token's name in its plate's font, in em (measured once per name on a shared canvas: no layout).
const nameWidths = new Map();
let measureCtx = null;
// Bumped when fonts finish loading and a name measured before is not as wide in them: a name measured before the
// plate's web font was loaded was measured in a fallback font, and its plate's width changed from one page load
// to the next. Every plate reads it, so that a new measure draws the plates again.
const namesMeasuredAgain = ref(0);
function measureNamesAgain() {
  measureCtx = null; // a new context: the old one may keep the font it found first
  let changed = false;
  for (const [text, before] of [...nameWidths]) {
    nameWidths.delete(text);
    if (nameWidthEm(text) !== before) changed = true;
  }
  if (changed) namesMeasuredAgain.value += 1;
}
if (typeof document !== "undefined" && document.fonts) document.fonts.addEventListener("loadingdone", measureNamesAgain);
function nameWidthEm(text) {
  void namesMeasuredAgain.value; // a dependency of every plate
  let w = nameWidths.get(text);
  if (w !== undefined) return w;
  if (measureCtx === null) {
    const canvas = document.createElement("canvas");
    measureCtx = (canvas.getContext && canvas.getContext("2d")) || false;
    if (measureCtx) measureCtx.font = "600 100px " + FONT_FAMILY;
  }
  w = measureCtx ? measureCtx.measureText(text).width / 100 : text.length * 0.58;
  if (nameWidths.size > 5000) nameWidths.clear();
  nameWidths.set(text, w);
  return w;
}

let stylesInjected = false;
function injectStyles() {
  if (stylesInjected) return;
  stylesInjected = true;
  const css = `
.vtt-map { position: relative; width: 100%; height: 100%; min-height: 320px; overflow: hidden;
  user-select: none; -webkit-user-select: none;
  background: radial-gradient(ellipse at 50% 40%, #4b433a 0%, #2e2924 60%, #1f1b17 100%); }
.vtt-map .vtt-svg, .vtt-map .vtt-board-svg { position: absolute; inset: 0; width: 100%; height: 100%; display: block;
  touch-action: none; font-family: ${FONT_FAMILY}; }
/* The board (and what lies on it under the tokens) is a layer of its own, under the tokens' svg: a token that moves
   is drawn again over the tokens alone, not over the board's paths (a grid of every space, the walls), which took
   most of the time of drawing a moved token's spaces again. Its svg never moves: the pan and zoom are inside it,
   and the layer is drawn at the screen's own scale. */
.vtt-map .vtt-board-svg { pointer-events: none; will-change: transform; }
.vtt-map .vtt-svg.vtt-panning { cursor: grabbing; }
/* The 1x1 px menu anchor sits on the last clicked token's centre: it must never catch the pointer, or a second
   click on the same point would land on it instead of the token. */
.vtt-map .vtt-anchor { position: absolute; left: 0; top: 0; width: 1px; height: 1px; pointer-events: none; }
.vtt-map-shadow { fill: rgba(0, 0, 0, 0.35); }
.vtt-map-edge { fill: none; stroke: #5b4a35; stroke-width: 3; vector-effect: non-scaling-stroke; }
.vtt-grid { fill: none; stroke: #8f7c5c; stroke-opacity: 0.55; stroke-width: 1; vector-effect: non-scaling-stroke; }
/* The board never takes the pointer (a press on it reaches the map's svg, which works out the space): a hit test
   (each pointer move, and the hover check after each change) no longer tests the grid's stroke (one path of every
   space's edges), the walls and the terrain. */
.vtt-map .vtt-board { pointer-events: none; }
.vtt-wall { fill: #4a423a; stroke: #231e19; stroke-width: 2; stroke-linejoin: round; vector-effect: non-scaling-stroke; }
.vtt-wall-hatch { stroke: none; pointer-events: none; }
.vtt-bg-image, .vtt-bg-tile { pointer-events: none; }
.vtt-water { fill: rgba(74, 136, 196, 0.55); stroke: #2f5f8f; stroke-width: 1.5; stroke-linejoin: round;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-water-waves { stroke: none; pointer-events: none; }
.vtt-uneven { fill: rgba(150, 112, 62, 0.28); stroke: #7a5a2c; stroke-width: 1; stroke-dasharray: 4 3;
  stroke-linejoin: round; vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-uneven-dots { stroke: none; pointer-events: none; }
.vtt-uneven-tier { font-weight: 700; fill: #5a3d16; paint-order: stroke; stroke: rgba(246, 238, 218, 0.8);
  stroke-linejoin: round; pointer-events: none; }
.vtt-conductive { fill: rgba(214, 150, 60, 0.30); stroke: #b8741c; stroke-width: 2.5; stroke-linejoin: round;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-conductive-zig { stroke: none; pointer-events: none; }
.vtt-stroke-preview { fill: rgba(255, 214, 90, 0.35); stroke: #c98a00; stroke-width: 2; stroke-dasharray: 5 3;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-stroke-preview.vtt-erasing { fill: rgba(220, 60, 60, 0.28); stroke: #b02020; }
.vtt-map .vtt-svg.vtt-painting { cursor: crosshair; }
.vtt-map .vtt-svg.vtt-placing { cursor: copy; }
.vtt-object-shape { stroke-width: 2; stroke-linejoin: round; vector-effect: non-scaling-stroke; }
.vtt-object-name { font-family: Georgia, "DejaVu Serif", serif; font-style: italic; fill: #2a2118;
  paint-order: stroke; stroke: rgba(246, 238, 218, 0.85); stroke-linejoin: round; pointer-events: none; }
.vtt-hl { pointer-events: none; stroke-linejoin: round; }
.vtt-hl-reach { fill: rgba(38, 112, 235, 0.34); stroke: rgba(24, 84, 200, 0.75); stroke-width: 1.2; }
.vtt-hl-target-fill { fill: rgba(214, 40, 40, 0.16); stroke: none; }
.vtt-hl-over { pointer-events: none; }
.vtt-hl-target { fill: none; stroke: #e01616; stroke-linejoin: round; }
.vtt-hl-target-back { fill: none; stroke: rgba(255, 250, 240, 0.9); stroke-linejoin: round; pointer-events: none; }
.vtt-hl-space { fill: rgba(240, 140, 30, 0.38); stroke: rgba(190, 100, 10, 0.6); stroke-width: 1; }
.vtt-hl-path { fill: rgba(60, 170, 80, 0.36); stroke: rgba(30, 120, 50, 0.6); stroke-width: 1; }
.vtt-hl-illegal { fill: rgba(90, 90, 90, 0.42); stroke: rgba(50, 50, 50, 0.6); stroke-width: 1; stroke-dasharray: 3 2; }
.vtt-move-reach { fill: rgba(80, 160, 230, 0.22); stroke: rgba(40, 110, 190, 0.35); stroke-width: 1;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-move-blocked { fill: rgba(150, 60, 50, 0.32); stroke: rgba(120, 30, 20, 0.6);
  stroke-width: 1; stroke-dasharray: 3 2; vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-move-path { fill: none; stroke: #1f6f3a; stroke-width: 3; stroke-linecap: round; stroke-linejoin: round;
  stroke-dasharray: 7 4; vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-move-step { font-weight: 700; fill: #143d22; paint-order: stroke; stroke: rgba(246, 238, 218, 0.9);
  stroke-linejoin: round; pointer-events: none; }
.vtt-map .vtt-move-label { position: absolute; left: 0; top: 0; z-index: 5; pointer-events: none; display: none;
  max-width: 22rem; will-change: transform;
  padding: 3px 7px; border-radius: 4px; background: rgba(30, 25, 20, 0.88); color: #f6eedb; font-size: 12px;
  line-height: 1.35; white-space: nowrap; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.4); }
.vtt-map .vtt-move-label .vtt-move-odds { color: #ffd27a; font-weight: 700; }
.vtt-map .vtt-move-label .vtt-move-no { color: #ffb0a0; }
.vtt-drop-preview { fill: rgba(255, 250, 230, 0.28); stroke: #fff6d8; stroke-width: 2; stroke-dasharray: 6 4;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-token { cursor: pointer; }
.vtt-token.vtt-draggable { cursor: grab; }
.vtt-token[data-dragging] { cursor: grabbing; opacity: 0.4; }
/* the token under the pointer has its own opacity group already, so dimming it at a drag start and back at the drop
   changes a value instead of re-recording the paint of the whole map */
.vtt-token.vtt-draggable:hover { will-change: opacity; }
/* A drag is drawn over the map, not in it: the path and step costs in one layer; the drop outline and the dragged
   token's copy each in a layer that slides (slideTo: the compositor's work; the map is not repainted at each move).
   The two that slide are only as big as what they hold (placeLayer): a layer that moves is drawn on the screen
   again in all its size at each frame. The layers stay on the page, empty between drags: one that comes or goes
   has the whole map drawn on the screen again. */
.vtt-map .vtt-drag-layer { position: absolute; left: 0; top: 0; width: 100%; height: 100%; overflow: hidden;
  pointer-events: none; will-change: transform; }
.vtt-map .vtt-drag-svg { position: absolute; inset: 0; width: 100%; height: 100%; display: block; overflow: visible;
  pointer-events: none; font-family: ${FONT_FAMILY}; }
.vtt-drag-ghost .vtt-token { opacity: 0.9; }
.vtt-token:hover .vtt-body { filter: brightness(1.12); }
.vtt-token text { pointer-events: none; }
.vtt-foot-outline { fill: none; stroke: #1e1914; stroke-linejoin: round; }
.vtt-foot-shared { fill: rgba(30, 25, 20, 0.06); stroke: #3a3026; stroke-opacity: 0.7; stroke-dasharray: 3 2;
  vector-effect: non-scaling-stroke; pointer-events: none; }
.vtt-body { stroke: #1d1813; }
/* the Soulweaver's hidden creatures: ghosted body, dashed outline, an eye-off mark; name and mark stay legible */
.vtt-token.vtt-hidden .vtt-body, .vtt-token.vtt-hidden .vtt-foot, .vtt-token.vtt-hidden .vtt-label,
.vtt-token.vtt-hidden .vtt-foot-outline { opacity: 0.45; }
.vtt-token.vtt-hidden .vtt-body { stroke-dasharray: 4 3; stroke: #f4ecff; }
.vtt-token.vtt-hidden .vtt-name-bg { fill: rgba(58, 40, 84, 0.9); stroke: #d9c8f5; stroke-dasharray: 3 2; }
.vtt-hidden-bg { fill: #3a2854; stroke: #f4ecff; }
.vtt-hidden-eye { fill: none; stroke: #f4ecff; stroke-linecap: round; stroke-linejoin: round; }
.vtt-hidden-pupil { fill: #f4ecff; }
.vtt-hidden-slash { stroke-linecap: round; }
.vtt-token.vtt-heard { opacity: 0.75; }
.vtt-token.vtt-heard .vtt-body { stroke-dasharray: 3 3; }
.vtt-token.vtt-heard .vtt-size-badge { display: none; } /* its size is not known */
.vtt-fog path { stroke: none; pointer-events: none; }
.vtt-fog-dark { fill: #14110e; fill-opacity: 0.94; }
.vtt-fog-dim { fill: #2a2724; fill-opacity: 0.5; }
.vtt-fog[data-preview="1"] .vtt-fog-dark { fill-opacity: 0.55; }
.vtt-fog[data-preview="1"] .vtt-fog-dim { fill-opacity: 0.3; }
.vtt-token.vtt-dead .vtt-body { fill: #6f675e; }
.vtt-label { font-weight: 700; fill: #fff; paint-order: stroke; stroke: rgba(0, 0, 0, 0.55); stroke-linejoin: round; }
.vtt-name-bg { fill: rgba(30, 25, 20, 0.84); }
.vtt-name { fill: #f6eedb; font-weight: 600; }
.vtt-badge-bg { fill: #f1e6c8; stroke: #3a2f24; }
.vtt-badge { fill: #2a2118; font-weight: 700; }
.vtt-ail-bg { fill: #6a2a58; stroke: #2c0f24; }
.vtt-ail { fill: #fff; font-weight: 700; }
.vtt-ailment-stomach .vtt-ail-bg { fill: #8a5a12; stroke: #3a2404; }
.vtt-bar-bg { fill: rgba(20, 16, 12, 0.78); }
.vtt-bar-grit { fill: #d8392b; }
.vtt-bar-energy { fill: #2f86e6; }
.vtt-bar-resolve { fill: #f0c020; }
.vtt-bar-ticks { stroke: rgba(20, 16, 12, 0.8); fill: none; }
.vtt-dead-mark { stroke: #8a1010; stroke-linecap: round; pointer-events: none; }
.vtt-active-halo { fill: none; stroke: rgba(60, 40, 0, 0.55); pointer-events: none; }
.vtt-active-ring { fill: none; stroke: #ffd23f; stroke-linejoin: round; pointer-events: none;
  animation: vtt-pulse 1.6s ease-in-out 4; }
/* tokens sharing a space list their names under it, one plate a line, each with its token's colour */
.vtt-name-swatch { stroke: #f6eedb; }
/* a name plate scaled up for reading may lie over its body or a neighbour's space: it never takes the pointer */
.vtt-token .vtt-name-plate { pointer-events: none; }
/* but a name in the list under a shared space is the easiest part of its small token to tap */
.vtt-token.vtt-stacked .vtt-name-plate { pointer-events: auto; }
.vtt-map .vtt-details { overflow: visible; }
.vtt-lod-low .vtt-details, .vtt-lod-low .vtt-object-name, .vtt-lod-low .vtt-uneven-tier { display: none; }
@keyframes vtt-pulse { 0%, 100% { opacity: 1; } 50% { opacity: 0.55; } }
/* the map's tools: the ruler toggle and the keys help; rulers and pings drawn over the tokens */
.vtt-map .vtt-tools { position: absolute; top: 8px; right: 8px; z-index: 6; display: flex; gap: 6px;
  align-items: flex-start; }
.vtt-map .vtt-tool { min-width: 34px; height: 34px; padding: 0 10px; border-radius: 6px; border: 1px solid #5b4a35;
  background: rgba(246, 238, 218, 0.92); color: #2a2118; font: 600 13px ${FONT_FAMILY}; cursor: pointer;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.35); touch-action: manipulation; }
.vtt-map .vtt-tool:hover { background: #fff8e6; }
.vtt-map .vtt-tool.vtt-on { background: #ffd23f; border-color: #8a6500; }
.vtt-map .vtt-keys { position: absolute; top: 42px; right: 0; display: none; width: max-content; max-width: 80vw;
  padding: 8px 10px; border-radius: 6px; background: rgba(30, 25, 20, 0.94); color: #f6eedb;
  font: 12px/1.5 ${FONT_FAMILY}; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.45); }
.vtt-map .vtt-keys.vtt-open { display: grid; grid-template-columns: auto auto; column-gap: 12px; }
.vtt-map .vtt-keys b { color: #ffd27a; white-space: nowrap; }
.vtt-map .vtt-svg.vtt-measuring { cursor: crosshair; }
.vtt-ruler { pointer-events: none; }
.vtt-ruler-line { stroke: #ffd23f; stroke-width: 4; stroke-linecap: round; vector-effect: non-scaling-stroke;
  filter: drop-shadow(0 0 2px rgba(0, 0, 0, 0.8)); }
.vtt-ruler-end { fill: rgba(255, 210, 63, 0.3); stroke: #ffd23f; stroke-width: 2; vector-effect: non-scaling-stroke; }
.vtt-ruler-dot { fill: #ffd23f; stroke: #3a2f24; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
.vtt-ruler-label { font-weight: 700; fill: #1e1914; paint-order: stroke; stroke: #ffe9a0; stroke-linejoin: round; }
.vtt-ruler-label .vtt-ruler-who { font-weight: 600; fill: #3a2f24; }
.vtt-ping { pointer-events: none; }
.vtt-ping-ring { fill: none; stroke: #ff5a36; stroke-width: 4; vector-effect: non-scaling-stroke;
  transform-box: fill-box; transform-origin: center; animation: vtt-ping-grow 1.2s ease-out infinite; }
.vtt-ping-ring.vtt-later { animation-delay: 0.6s; }
.vtt-ping-dot { fill: #ff5a36; stroke: #fff; stroke-width: 2; vector-effect: non-scaling-stroke; }
.vtt-ping-name { font-weight: 700; fill: #fff; paint-order: stroke; stroke: #7a1c08; stroke-linejoin: round; }
@keyframes vtt-ping-grow { 0% { transform: scale(0.35); opacity: 1; } 100% { transform: scale(1.7); opacity: 0; } }
/* reduced motion (the system's setting): the active creature's ring and a ping's rings stand still, fully drawn */
@media (prefers-reduced-motion: reduce) { .vtt-active-ring, .vtt-ping-ring { animation: none !important; } }
`;
  const el = document.createElement("style");
  el.setAttribute("data-vtt-map-style", "");
  el.textContent = css;
  document.head.append(el);
}

// ---------------------------------------------------------------------------------------------------------
// Static board: background, grid (one path), walls (one path), objects.
// Terrain (water, Uneven Ground with its Tier, conductive material) lies under the grid; walls and objects over it.
// The background image (`bg`: {image, offset: [x, y], cell_px, opacity}) is scaled so that `cell_px` image pixels
// are one space (a square's side; for hexes the distance between neighbouring centres) and its pixel `offset` lies
// on the grid's origin, the top-left corner of space (0, 0)'s bounding box; it is clipped to the map.
const VttBoard = {
  props: {
    geo: Object,
    cols: Number,
    rows: Number,
    walls: Array,
    objects: Array,
    water: Array,
    uneven: Array,
    conductive: Array,
    bg: Object,
    tileClip: String,
    uid: String,
  },
  data() {
    return { natural: null };
  },
  watch: {
    "bg.image": {
      immediate: true,
      handler(src) {
        this.natural = null;
        if (!src) return;
        const img = new Image();
        img.onload = () => {
          if (this.bg && this.bg.image === src) this.natural = [img.naturalWidth, img.naturalHeight];
        };
        img.src = src;
      },
    },
  },
  computed: {
    bgBox() {
      const bg = this.bg;
      if (!bg || !bg.image || !this.natural) return null;
      const spacing = this.geo.grid === "hex" ? this.geo.cell * SQRT3 : this.geo.cell;
      const s = spacing / (Number(bg.cell_px) > 0 ? Number(bg.cell_px) : 70);
      const [ox, oy] = Array.isArray(bg.offset) ? bg.offset : [0, 0];
      const opacity = bg.opacity == null ? 1 : Number(bg.opacity);
      return { href: bg.image, x: -ox * s, y: -oy * s, w: this.natural[0] * s, h: this.natural[1] * s, opacity };
    },
    // under fog of war: only the picture's pieces the seat may see ([href, left, top, width, height] in pixels;
    // neighbours overlap a little, so the opacity is the group's)
    bgTiles() {
      const bg = this.bg;
      if (!bg || !Array.isArray(bg.tiles)) return [];
      const spacing = this.geo.grid === "hex" ? this.geo.cell * SQRT3 : this.geo.cell;
      const s = spacing / (Number(bg.cell_px) > 0 ? Number(bg.cell_px) : 70);
      const [ox, oy] = Array.isArray(bg.offset) ? bg.offset : [0, 0];
      const opacity = bg.opacity == null ? 1 : Number(bg.opacity);
      return bg.tiles.map(([href, l, t, w, h]) => {
        return { key: href, href, x: (l - ox) * s, y: (t - oy) * s, w: w * s, h: h * s, opacity };
      });
    },
    waterCells() {
      return (this.water || []).filter((c) => Array.isArray(c) && c.length >= 2);
    },
    waterPath() {
      const cells = this.waterCells;
      return cells.length ? outlinePath(this.geo, cells, cellSetOf(cells)) : "";
    },
    unevenCells() {
      return (this.uneven || []).filter((c) => Array.isArray(c) && c.length >= 2);
    },
    unevenPath() {
      const cells = this.unevenCells;
      return cells.length ? outlinePath(this.geo, cells, cellSetOf(cells)) : "";
    },
    unevenTiers() {
      const fs = this.geo.inner * 0.55;
      return this.unevenCells.map(([q, r, t]) => {
        const [x, y] = this.geo.center(q, r);
        return { key: cellKey(q, r), x, y: y - this.geo.inner * 0.35, t: t == null ? 1 : t, fs };
      });
    },
    conductiveCells() {
      return (this.conductive || []).filter((c) => Array.isArray(c) && c.length >= 2);
    },
    conductivePath() {
      const cells = this.conductiveCells;
      return cells.length ? outlinePath(this.geo, cells, cellSetOf(cells)) : "";
    },
    outline() {
      const { geo, cols, rows } = this;
      return outlinePath(geo, geo.cells(cols, rows, true), (q, r) => geo.inBounds(q, r, cols, rows));
    },
    gridPath() {
      const { geo, cols, rows } = this;
      const c = geo.cell;
      const parts = [];
      if (geo.grid === "square") {
        const [w, h] = geo.size(cols, rows);
        for (let y = 1; y < rows; y++) parts.push("M0 " + fmt(y * c) + "H" + fmt(w));
        for (let x = 1; x < cols; x++) parts.push("M" + fmt(x * c) + " 0V" + fmt(h));
        return parts.join("");
      }
      // West, north-west and north-east edge of every hex; the remaining edges are either shared with a
      // neighbour (which draws them) or on the map border (drawn by the outline).
      const w = fmt(geo.inner);
      const h = fmt(c / 2);
      const up = "v" + fmt(-c) + "l" + w + " -" + h + "l" + w + " " + h;
      for (const [q, r] of geo.cells(cols, rows, false)) {
        const [cx, cy] = geo.center(q, r);
        parts.push("M" + fmt(cx - geo.inner) + " " + fmt(cy + c / 2) + up);
      }
      return parts.join("");
    },
    wallPath() {
      const walls = (this.walls || []).filter((w) => Array.isArray(w) && w.length >= 2);
      return walls.length ? outlinePath(this.geo, walls, cellSetOf(walls)) : "";
    },
    shapes() {
      const geo = this.geo;
      return (this.objects || []).map((o, i) => {
        const cells = (o.cells || []).filter((c) => Array.isArray(c) && c.length >= 2);
        const [fill, stroke] = objectStyle(o.kind, o.name);
        let x = 0;
        let y = 0;
        for (const [q, r] of cells) {
          const [cx, cy] = geo.center(q, r);
          x += cx;
          y += cy;
        }
        const n = Math.max(1, cells.length);
        return {
          key: o.id != null ? String(o.id) : "o" + i,
          id: o.id,
          count: cells.length,
          kind: o.kind || "",
          name: o.name || "",
          d: cells.length ? outlinePath(geo, cells, cellSetOf(cells)) : "",
          fill,
          stroke,
          x: x / n,
          y: y / n,
          fs: geo.inner * (cells.length > 1 ? 0.42 : 0.34),
        };
      });
    },
  },
  template: `
    <g class="vtt-board">
      <path :d="outline" class="vtt-map-shadow" transform="translate(4 7)"/>
      <path :d="outline" :fill="'url(#vtt-parch-' + uid + ')'"/>
      <clipPath :id="'vtt-clip-' + uid"><path :d="outline"/></clipPath>
      <image v-if="bgBox" class="vtt-bg-image" data-layer="background" :href="bgBox.href" :x="bgBox.x" :y="bgBox.y"
             :width="bgBox.w" :height="bgBox.h" :opacity="bgBox.opacity" preserveAspectRatio="none"
             :clip-path="'url(#vtt-clip-' + uid + ')'"/>
      <clipPath v-if="tileClip" :id="'vtt-tile-clip-' + uid"><path :d="tileClip"/></clipPath>
      <g v-if="bgTiles.length" class="vtt-bg-tiles" data-layer="background-tiles" :opacity="bgTiles[0].opacity"
         :clip-path="'url(#vtt-' + (tileClip ? 'tile-clip-' : 'clip-') + uid + ')'">
        <image v-for="t in bgTiles" :key="t.key" class="vtt-bg-tile" :href="t.href" :x="t.x" :y="t.y" :width="t.w"
               :height="t.h" preserveAspectRatio="none"/>
      </g>
      <g class="vtt-terrain-water" data-layer="water" :data-count="waterCells.length">
        <template v-if="waterPath">
          <path :d="waterPath" class="vtt-water"/>
          <path :d="waterPath" class="vtt-water-waves" :fill="'url(#vtt-waves-' + uid + ')'"/>
        </template>
      </g>
      <g class="vtt-terrain-uneven" data-layer="uneven" :data-count="unevenCells.length">
        <template v-if="unevenPath">
          <path :d="unevenPath" class="vtt-uneven"/>
          <path :d="unevenPath" class="vtt-uneven-dots" :fill="'url(#vtt-dots-' + uid + ')'"/>
          <text v-for="u in unevenTiers" :key="u.key" class="vtt-uneven-tier" :x="u.x" :y="u.y" dy="0.35em"
                text-anchor="middle" :font-size="u.fs" :stroke-width="u.fs * 0.25" :data-q="u.key">{{ u.t }}</text>
        </template>
      </g>
      <g class="vtt-terrain-conductive" data-layer="conductive" :data-count="conductiveCells.length">
        <template v-if="conductivePath">
          <path :d="conductivePath" class="vtt-conductive"/>
          <path :d="conductivePath" class="vtt-conductive-zig" :fill="'url(#vtt-zig-' + uid + ')'"/>
        </template>
      </g>
      <path :d="gridPath" class="vtt-grid"/>
      <path :d="outline" class="vtt-map-edge"/>
      <g class="vtt-walls" data-layer="wall" :data-count="(walls || []).length">
        <template v-if="wallPath">
          <path :d="wallPath" class="vtt-wall"/>
          <path :d="wallPath" class="vtt-wall-hatch" :fill="'url(#vtt-hatch-' + uid + ')'"/>
        </template>
      </g>
      <g v-for="o in shapes" :key="o.key" class="vtt-object" :data-object-id="o.id" :data-kind="o.kind"
         :data-cells="o.count">
        <path :d="o.d" class="vtt-object-shape" :style="{ fill: o.fill, stroke: o.stroke }"/>
        <text :x="o.x" :y="o.y" dy="0.35em" text-anchor="middle" class="vtt-object-name"
              :font-size="o.fs" :stroke-width="o.fs * 0.3">{{ o.name }}</text>
      </g>
    </g>`,
};

// ---------------------------------------------------------------------------------------------------------
// Highlights, in two layers. Under the tokens: translucent cells (reach, space, path, illegal) and a faint fill of
// the targets. Over the tokens (`over`): the target outlines, thick red dashes that stay visible when the
// target's token covers its cell. Neither layer catches the pointer.
const VttHighlights = {
  props: { geo: Object, items: Array, over: Boolean },
  computed: {
    cells() {
      const geo = this.geo;
      const over = this.over;
      const out = [];
      (this.items || []).forEach((h, i) => {
        const kind = String((h && h.kind) || "reach");
        if (over && kind !== "target") return;
        const scale = over ? 0.96 : 0.94; // the target outline runs along the cell's edge, clear of the name
        const cls = kind === "target" && !over ? "vtt-hl vtt-hl-target-fill" : "vtt-hl vtt-hl-" + kind;
        for (const c of (h && h.cells) || []) {
          if (!Array.isArray(c) || c.length < 2) continue;
          const [q, r] = c;
          const center = geo.center(q, r);
          // the under-layer fill of a target carries no data-highlight-kind: one marked element per target cell
          const item = { key: i + ":" + q + "," + r, kind: cls === "vtt-hl vtt-hl-target-fill" ? null : kind, q, r, cls };
          if (geo.grid === "square") {
            const size = geo.cell * scale;
            item.x = center[0] - size / 2;
            item.y = center[1] - size / 2;
            item.size = size;
          } else {
            item.points = polygonPoints(geo.corners(q, r), center, scale);
          }
          out.push(item);
        }
      });
      return out;
    },
    stroke() {
      const ri = this.geo.inner;
      return { back: fmt(ri * 0.26), line: fmt(ri * 0.15), dash: fmt(ri * 0.34) + " " + fmt(ri * 0.2) };
    },
  },
  template: `
    <g v-if="over" class="vtt-highlights vtt-hl-over" pointer-events="none">
      <template v-for="c in cells" :key="c.key">
        <template v-if="geo.grid === 'square'">
          <rect :x="c.x" :y="c.y" :width="c.size" :height="c.size" rx="3" class="vtt-hl-target-back"
                :stroke-width="stroke.back"/>
          <rect :x="c.x" :y="c.y" :width="c.size" :height="c.size" rx="3" :class="c.cls" :stroke-width="stroke.line"
                :stroke-dasharray="stroke.dash" :data-highlight-kind="c.kind" :data-q="c.q" :data-r="c.r"/>
        </template>
        <template v-else>
          <polygon :points="c.points" class="vtt-hl-target-back" :stroke-width="stroke.back"/>
          <polygon :points="c.points" :class="c.cls" :stroke-width="stroke.line" :stroke-dasharray="stroke.dash"
                   :data-highlight-kind="c.kind" :data-q="c.q" :data-r="c.r"/>
        </template>
      </template>
    </g>
    <g v-else class="vtt-highlights" pointer-events="none">
      <template v-for="c in cells" :key="c.key">
        <rect v-if="geo.grid === 'square'" :x="c.x" :y="c.y" :width="c.size" :height="c.size" rx="3"
              :class="c.cls" :data-highlight-kind="c.kind" :data-q="c.q" :data-r="c.r"/>
        <polygon v-else :points="c.points" :class="c.cls" :data-highlight-kind="c.kind" :data-q="c.q" :data-r="c.r"/>
      </template>
    </g>`,
};

// ---------------------------------------------------------------------------------------------------------
// Tokens sharing one space (several single-space tokens on the same cell) are drawn side by side inside it: slot
// centres are offsets from the cell's centre and `r` the largest body radius, in units of the cell's inner radius.
const STACK_LAYOUTS = {
  2: [0.44, [[-0.5, 0], [0.5, 0]]],
  3: [0.42, [[0, -0.44], [-0.48, 0.36], [0.48, 0.36]]],
  4: [0.38, [[-0.42, -0.42], [0.42, -0.42], [-0.42, 0.42], [0.42, 0.42]]],
};

function stackSlot(i, n) {
  const preset = STACK_LAYOUTS[n];
  if (preset) {
    const [dx, dy] = preset[1][i] || [0, 0];
    return { r: preset[0], dx, dy };
  }
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const step = 1.6 / cols;
  const row = Math.floor(i / cols);
  const inRow = row === rows - 1 ? n - row * cols : cols;
  const col = i - row * cols;
  return { r: step * 0.46, dx: (col - (inRow - 1) / 2) * step, dy: (row - (rows - 1) / 2) * step };
}

// "i/n" (slot i of n tokens in one space) -> slot, or null.
function parseStack(stack) {
  if (!stack) return null;
  const [i, n] = String(stack).split("/").map(Number);
  return n > 1 && i >= 0 && i < n ? stackSlot(i, n) : null;
}

// One token. Its object is mutated in place by the parent, so only this component re-renders.
//
// A token that has not moved is drawn where it stands, with no transform: a transform of its own makes a token a
// paint chunk of its own, and every change's layerizing went through one chunk per token (1.5 of the 3.7 ms of
// rendering per move on a 500-token map). From its first move on (`placed`), a token is drawn about its own origin,
// the middle of its spaces (`at`), and placed by one transform: a move changes that transform (and data-q/data-r),
// the rest keeps its attributes, so the browser moves the token's already painted drawing instead of painting the
// whole map again (as it does when a token gains or loses a transform: an identity transform counts as none). So is
// a token this page may drag: hovered or dragged, it is an opacity group (a layer) of its own, and a layer amid the
// untransformed tokens made each of the dragging page's frames layerize for 16-26 ms instead of 1.6.
//
// Its details (initials, size badge, pool bars, name plate, hidden mark, ailments) lie in one nested <svg> that low
// detail hides: a hidden <g> keeps a layout object, and so do its children (a rule of SVG for <g> alone), which each
// change's layout and pre-paint and each hit test went through (10,000 of a big map's 12,300); a hidden <svg> has
// none.
//
// Layout of a one-space token, in units of the cell's inner radius ri, from the cell's centre downwards: the
// label (initials) in the upper half of the body; the name plate across the lower half (font 0.5 ri: about
// 9 px at the default zoom of a 30x20 map in 1200x950 px); the pool bars along the bottom edge of the cell. The
// token's marks thus stay inside its own row: its name plate never reaches the bars of the row above.
const VttToken = {
  props: { t: Object, geo: Object, active: Boolean, uid: String, stack: { type: String, default: "" } },
  data() {
    return { moved: false };
  },
  created() {
    this.atGeo = this.geo;
  },
  watch: {
    // a move, not a new grid or size of space (which moves every token)
    at(now, before) {
      if (this.atGeo === this.geo && (now[0] !== before[0] || now[1] !== before[1])) this.moved = true;
      this.atGeo = this.geo;
    },
  },
  computed: {
    cells() {
      const cells = Array.isArray(this.t.cells) ? this.t.cells.filter((c) => Array.isArray(c) && c.length >= 2) : [];
      return cells.length ? cells : [[0, 0]];
    },
    anchor() {
      return this.cells[0];
    },
    multi() {
      return this.cells.length > 1;
    },
    slot() {
      return this.multi ? null : parseStack(this.stack);
    },
    // the middle of the token's spaces (of its one space for a token sharing it), on the map: the token's origin
    at() {
      let x = 0;
      let y = 0;
      for (const [q, r] of this.cells) {
        const [cx, cy] = this.geo.center(q, r);
        x += cx;
        y += cy;
      }
      return [x / this.cells.length, y / this.cells.length];
    },
    placed() {
      return this.moved || !!this.t.draggable;
    },
    place() {
      if (!this.placed) return null;
      const [x, y] = this.at;
      return `translate(${Math.round(x * 100) / 100} ${Math.round(y * 100) / 100})`;
    },
    // the middle of the token's spaces as drawn: where it stands, or its origin once placed by a transform
    spaceCenter() {
      return this.placed ? [0, 0] : this.at;
    },
    center() {
      const [x, y] = this.spaceCenter;
      const s = this.slot;
      return s ? [x + s.dx * this.ri, y + s.dy * this.ri] : [x, y];
    },
    // i of n for a token sharing its space with n - 1 others
    stackIndex() {
      if (!this.slot) return null;
      const [i, n] = String(this.stack).split("/").map(Number);
      return { i, n };
    },
    // how far its spaces are drawn from where they are (none, or `at` once placed by a transform)
    drawnAt() {
      const [x, y] = this.at;
      const [cx, cy] = this.spaceCenter;
      return [x - cx, y - cy];
    },
    foot() {
      const geo = this.geo;
      const [ox, oy] = this.drawnAt;
      // keyed by place in the footprint, not by space: a move keeps the polygons (no remove and insert)
      return this.cells.map(([q, r], i) => {
        const points = geo.corners(q, r).map(([x, y]) => fmt(x - ox) + "," + fmt(y - oy)).join(" ");
        return { key: i, q, r, points };
      });
    },
    outline() {
      return this.multi ? outlinePath(this.geo, this.cells, cellSetOf(this.cells), this.drawnAt) : "";
    },
    ri() {
      return this.geo.inner;
    },
    size() {
      const s = Number(this.t.size);
      return Number.isFinite(s) ? Math.round(s) : 0;
    },
    ui() {
      // scale of the badges and bars: a little larger on big (multi-cell) tokens, smaller in a shared space
      if (this.multi) return Math.min(1.5, 0.9 + 0.12 * Math.sqrt(this.cells.length));
      return this.slot ? 0.7 : 1;
    },
    rb() {
      if (this.multi) return this.ri * Math.min(1.7, 0.55 + 0.3 * Math.sqrt(this.cells.length));
      const s = this.size;
      const f = s <= -2 ? 0.42 : s === -1 ? 0.56 : s === 0 ? 0.72 : 0.9;
      return this.ri * (this.slot ? Math.min(f, this.slot.r) : f);
    },
    rd() {
      // radius the badges sit around: a small one-space body keeps them clear of its initials
      return this.multi || this.slot ? this.rb : Math.max(this.rb, this.ri * 0.66);
    },
    ring() {
      const k = this.slot ? 0.8 : 1;
      return { r: this.rb + this.ri * 0.15 * k, halo: this.ri * 0.26 * k, line: this.ri * 0.14 * k };
    },
    // the token's picture: the server serves it by the hash the token carries (never a URL from the token)
    picture() {
      const h = typeof this.t.picture === "string" && /^[0-9a-f]{64}$/.test(this.t.picture) ? this.t.picture : "";
      return h ? "/api/pictures/" + h : "";
    },
    label() {
      const l = this.t.label != null && this.t.label !== "" ? String(this.t.label) : String(this.t.name || "?").slice(0, 2);
      return l.slice(0, 4);
    },
    labelSize() {
      const short = this.label.length <= 2;
      if (this.slot) return this.rb * (short ? 0.72 : 0.5);
      return Math.max(this.ri * 0.26, this.rb * (short ? 0.62 : 0.45));
    },
    labelY() {
      // upper half of the body; centred (above the bars) on a token in a shared space, which has no plate
      return this.center[1] - this.rb * (this.slot ? 0.18 : 0.42);
    },
    name() {
      // a token may have a shorter name for its plate (`plate`; its tooltip keeps the whole name)
      const n = String(this.t.plate != null ? this.t.plate : this.t.name == null ? "" : this.t.name);
      return n.length > 24 ? n.slice(0, 23) + "\u2026" : n;
    },
    fsName() {
      return this.ri * 0.5 * (this.multi ? this.ui : 1);
    },
    namePill() {
      const fs = this.fsName;
      const pad = fs * 0.6;
      if (this.slot) {
        // a shared space: the plates of its tokens make a list under the space, each with its token's colour;
        // they all scale about the list's top (`plateStyle`), so the list stays a list at any zoom
        const sw = fs * 0.8;
        const tw = nameWidthEm(this.name) * fs;
        const w = tw + pad + sw + fs * 0.3;
        const h = fs * 1.25;
        const [sx, sy] = this.spaceCenter;
        const top = sy + this.ri * 0.92; // below the bars of the tokens in the space
        const mid = top + h * (0.5 + this.stackIndex.i * 1.06);
        return {
          x: sx - w / 2, y: mid - h / 2, w, h, tx: sx + (sw + fs * 0.3) / 2, ty: mid, textLength: null,
          swatch: { cx: sx - w / 2 + pad / 2 + sw / 2, cy: mid, r: sw / 2 }, origin: [sx, top],
        };
      }
      // about one cell wide at most, so that the plates of neighbours in a row meet without covering each
      // other: a longer name is squeezed (down to 80 %), and only beyond that the plate grows
      const room = (this.multi ? Math.max(this.rb * 2, this.ri * 1.96) : this.ri * 1.96) - pad;
      const natural = nameWidthEm(this.name) * fs;
      const squeeze = natural > room ? Math.max(0.8, room / natural) : 1;
      const tw = natural * squeeze;
      const w = tw + pad;
      const h = fs * 1.25;
      const [cx, cy] = this.center;
      // one space: lower half of the cell, above the bars; big token: lower half of its body; a token in a
      // shared space (plate shown on hover only): right under its body
      const mid = this.multi ? cy + this.rb * 0.3 : cy + this.ri * 0.34;
      const textLength = squeeze < 1 ? fmt(tw) : null;
      // scaled up, the plate grows upwards from its bottom: the pool bars under it stay in sight
      const origin = [cx, mid + h / 2];
      return { x: cx - w / 2, y: mid - h / 2, w, h, tx: cx, ty: mid, textLength, swatch: null, origin };
    },
    // Scales the name plate up about `namePill.origin` when the zoom would draw its text under NAME_MIN_PX:
    // `--vtt-name-min` (set on the map by the zoom) is that height in map units.
    plateStyle() {
      const [ox, oy] = this.namePill.origin;
      const scale = `clamp(1, calc(var(--vtt-name-min, 0) / ${fmt(this.fsName)}), ${NAME_MAX_SCALE})`;
      return `transform: translate(${fmt(ox)}px, ${fmt(oy)}px) scale(${scale}) translate(${fmt(-ox)}px, ${fmt(-oy)}px)`;
    },
    // the Soulweaver's eye-off mark on a hidden creature: above the body, in a 24-unit icon box
    hiddenMark() {
      if (!this.t.hidden) return null;
      const s = (this.ri * 0.42 * (this.slot ? 0.8 : this.ui)) / 12;
      const [cx, cy] = this.center;
      const y = cy - this.rb - this.ri * 0.05;
      // at least as high on screen as a name plate's text, grown upwards from the bottom of the mark
      const grow = `clamp(1, calc(var(--vtt-name-min, 0) * 1.4 / ${fmt(24 * s)}), ${NAME_MAX_SCALE})`;
      const oy = y + 12 * s;
      return {
        transform: `translate(${fmt(cx - 12 * s)} ${fmt(y - 12 * s)}) scale(${fmt(s)})`,
        style: `transform: translate(${fmt(cx)}px, ${fmt(oy)}px) scale(${grow}) translate(${fmt(-cx)}px, ${fmt(-oy)}px)`,
      };
    },
    sizeBadge() {
      const fs = this.ri * 0.3 * this.ui;
      const text = "S" + this.size;
      const w = text.length * fs * 0.62 + fs * 0.6;
      const h = fs * 1.3;
      const [cx, cy] = this.center;
      const x = cx - this.rd * 0.78 - w / 2;
      const y = cy - this.rd * 0.62 - h / 2;
      return { text, fs, x, y, w, h, tx: x + w / 2, ty: y + h / 2 };
    },
    bars() {
      const pools = [
        ["grit", poolOf(this.t.grit)],
        ["energy", poolOf(this.t.energy)],
        ["resolve", poolOf(this.t.resolve)],
      ].filter(([, p]) => p);
      const ri = this.ri;
      const [cx, cy] = this.center;
      let w;
      let h;
      let gap;
      let y;
      if (this.multi) {
        // across the bottom of the body
        w = this.rb * 1.1;
        h = ri * 0.09 * this.ui;
        gap = ri * 0.03 * this.ui;
        y = cy + this.rb * 0.62;
      } else if (this.slot) {
        // across the bottom of the small body
        w = this.rb * 1.5;
        h = ri * 0.075;
        gap = ri * 0.02;
        y = cy + this.rb * 0.36;
      } else {
        // along the bottom edge of the cell, under the name plate
        w = ri * 1.1;
        h = ri * 0.09;
        gap = ri * 0.03;
        y = cy + ri * 0.7;
      }
      const x = cx - w / 2;
      return pools.map(([kind, p]) => {
        // the bar shows what is left of the pool: Pips fill a pool (Injury in Grit), and a full one has effects
        const left = p.max - p.pips;
        const bar = { kind, x, y, w, h, fill: (w * left) / p.max, pips: p.pips, max: p.max, left, ticks: "" };
        if (p.max > 1 && p.max <= 16) {
          for (let i = 1; i < p.max; i++) bar.ticks += "M" + fmt(x + (w * i) / p.max) + " " + fmt(y) + "v" + fmt(h);
        }
        y += h + gap;
        return bar;
      });
    },
    barFrame() {
      return this.ri * (this.slot ? 0.02 : 0.03);
    },
    ailments() {
      const list = Array.isArray(this.t.ailments) ? this.t.ailments : [];
      const fs = this.ri * 0.28 * this.ui;
      const h = fs * 1.3;
      const [cx, cy] = this.center;
      const x = cx + this.rd * 0.62;
      let y = cy - this.rd * 0.86;
      const shown = list.slice(0, list.length > 4 ? 3 : 4).map((a, i) => {
        const nm = String((a && a.name) || "?");
        const tier = a && a.tier != null && a.tier !== "" ? String(a.tier) : "";
        const text = nm.slice(0, 3).toUpperCase() + tier;
        const title = a && a.title ? String(a.title) : nm + (tier ? " " + tier : "");
        const kind = a && a.kind ? String(a.kind) : "";
        const badge = { key: i, text, title, kind, x, y, w: text.length * fs * 0.66 + fs * 0.6, h, fs };
        y += h + fs * 0.15;
        return badge;
      });
      if (list.length > 4) {
        const text = "+" + (list.length - 3);
        const title = list.slice(3).map((a) => String((a && a.name) || "?") + " " + ((a && a.tier) ?? "")).join(", ");
        shown.push({ key: "more", text, title, x, y, w: text.length * fs * 0.66 + fs * 0.6, h, fs });
      }
      return shown;
    },
    grit() {
      const p = poolOf(this.t.grit);
      return p ? p.pips : "";
    },
    classes() {
      return {
        "vtt-token": true,
        "vtt-draggable": !!this.t.draggable,
        "vtt-multi": this.multi,
        "vtt-stacked": !!this.slot,
        "vtt-hidden": !!this.t.hidden,
        "vtt-heard": !!this.t.heard,
        "vtt-dead": !!this.t.dead,
        "vtt-prone": !!this.t.prone,
        "vtt-is-active": this.active,
      };
    },
  },
  template: `
    <g :class="classes" :data-token-id="t.id" :data-q="anchor[0]" :data-r="anchor[1]" :data-grit="grit"
       :data-size="size" :data-active="active ? 'true' : null" :data-stack="stack || null"
       :data-hidden="t.hidden ? 'true' : null" :transform="place">
      <title>{{ t.name }}</title>
      <template v-if="slot">
        <polygon v-for="c in foot" :key="c.key" class="vtt-foot vtt-foot-shared" :points="c.points"
                 :data-q="c.q" :data-r="c.r"/>
      </template>
      <template v-else>
        <polygon v-for="c in foot" :key="c.key" class="vtt-foot" :points="c.points" :data-q="c.q" :data-r="c.r"
                 :fill="t.color || '#777'" :fill-opacity="multi ? 0.55 : 0.22"
                 :stroke="multi ? 'rgba(0,0,0,0.22)' : t.color || '#777'" :stroke-opacity="multi ? 1 : 0.55"
                 :stroke-width="multi ? 1 : ri * 0.06"/>
      </template>
      <path v-if="multi" :d="outline" class="vtt-foot-outline" :stroke-width="ri * 0.14"/>
      <template v-if="active">
        <path v-if="multi" :d="outline" class="vtt-active-halo" :stroke-width="ri * 0.34"/>
        <path v-if="multi" :d="outline" class="vtt-active-ring" :stroke-width="ri * 0.16"
              :filter="'url(#vtt-glow-' + uid + ')'"/>
        <circle v-if="!multi" :cx="center[0]" :cy="center[1]" :r="ring.r" class="vtt-active-halo"
                :stroke-width="ring.halo"/>
        <circle v-if="!multi" :cx="center[0]" :cy="center[1]" :r="ring.r" class="vtt-active-ring"
                :stroke-width="ring.line" :filter="'url(#vtt-glow-' + uid + ')'"/>
      </template>
      <ellipse class="vtt-body" :cx="center[0]" :cy="center[1]" :rx="rb" :ry="t.prone ? rb * 0.62 : rb"
               :fill="t.color || '#777'" :stroke-width="Math.max(1.5, rb * 0.09)"/>
      <ellipse :cx="center[0]" :cy="center[1]" :rx="rb * 0.8" :ry="(t.prone ? rb * 0.62 : rb) * 0.8" fill="none"
               stroke="rgba(255,255,255,0.28)" :stroke-width="Math.max(1, rb * 0.05)" pointer-events="none"/>
      <template v-if="picture">
        <clipPath :id="'vtt-pic-' + uid + '-' + t.id">
          <ellipse :cx="center[0]" :cy="center[1]" :rx="rb * 0.94" :ry="(t.prone ? rb * 0.62 : rb) * 0.94"/>
        </clipPath>
        <image class="vtt-token-picture" data-role="picture" :href="picture" :x="center[0] - rb" :y="center[1] - rb"
               :width="2 * rb" :height="2 * rb" preserveAspectRatio="xMidYMid slice" pointer-events="none"
               :clip-path="'url(#vtt-pic-' + uid + '-' + t.id + ')'"/>
      </template>
      <g v-if="t.dead" class="vtt-dead-mark" :stroke-width="rb * 0.16">
        <line :x1="center[0] - rb * 0.6" :y1="center[1] - rb * 0.6" :x2="center[0] + rb * 0.6" :y2="center[1] + rb * 0.6"/>
        <line :x1="center[0] + rb * 0.6" :y1="center[1] - rb * 0.6" :x2="center[0] - rb * 0.6" :y2="center[1] + rb * 0.6"/>
      </g>
      <svg class="vtt-details">
        <text v-if="!picture" class="vtt-label" :x="center[0]" :y="labelY" dy="0.36em" text-anchor="middle"
              :font-size="labelSize" :stroke-width="labelSize * 0.14">{{ label }}</text>
        <g v-if="!slot" class="vtt-size-badge">
          <rect class="vtt-badge-bg" :x="sizeBadge.x" :y="sizeBadge.y" :width="sizeBadge.w" :height="sizeBadge.h"
                :rx="sizeBadge.h / 2" :stroke-width="ri * 0.03"/>
          <text class="vtt-badge" :x="sizeBadge.tx" :y="sizeBadge.ty" dy="0.36em" text-anchor="middle"
                :font-size="sizeBadge.fs">{{ sizeBadge.text }}</text>
        </g>
        <g v-for="b in bars" :key="b.kind" class="vtt-bar" :data-pool="b.kind" :data-pips="b.pips" :data-max="b.max"
           :data-left="b.left">
          <rect class="vtt-bar-bg" :x="b.x - barFrame" :y="b.y - barFrame" :width="b.w + 2 * barFrame"
                :height="b.h + 2 * barFrame" :rx="barFrame * 1.3"/>
          <rect :class="'vtt-bar-fill vtt-bar-' + b.kind" :x="b.x" :y="b.y" :width="b.fill" :height="b.h"/>
          <path v-if="b.ticks" class="vtt-bar-ticks" :d="b.ticks" :stroke-width="barFrame"/>
        </g>
        <g v-if="name" class="vtt-name-plate" :style="plateStyle">
          <rect class="vtt-name-bg" :x="namePill.x" :y="namePill.y" :width="namePill.w" :height="namePill.h"
                :rx="namePill.h * 0.35" :stroke-width="fsName * 0.1"/>
          <circle v-if="namePill.swatch" class="vtt-name-swatch" :cx="namePill.swatch.cx" :cy="namePill.swatch.cy"
                  :r="namePill.swatch.r" :fill="t.color || '#777'" :stroke-width="fsName * 0.08"/>
          <text class="vtt-name" :x="namePill.tx" :y="namePill.ty" dy="0.36em" text-anchor="middle"
                :font-size="fsName" :textLength="namePill.textLength"
                :lengthAdjust="namePill.textLength ? 'spacingAndGlyphs' : null">{{ name }}</text>
        </g>
        <g v-if="hiddenMark" class="vtt-hidden-mark" data-role="hidden-mark" :style="hiddenMark.style">
         <g :transform="hiddenMark.transform">
          <title>Hidden: the players do not see this creature</title>
          <circle class="vtt-hidden-bg" cx="12" cy="12" r="11" stroke-width="1.5"/>
          <path class="vtt-hidden-eye" d="M4 12 Q12 4.5 20 12 Q12 19.5 4 12 Z" stroke-width="1.8"/>
          <circle class="vtt-hidden-pupil" cx="12" cy="12" r="2.6"/>
          <line class="vtt-hidden-slash" x1="5.5" y1="18.5" x2="18.5" y2="5.5" stroke="#3a2854" stroke-width="4.5"/>
          <line class="vtt-hidden-slash" x1="5.5" y1="18.5" x2="18.5" y2="5.5" stroke="#f4ecff" stroke-width="1.8"/>
         </g>
        </g>
        <g v-for="a in ailments" :key="a.key" :class="['vtt-ailment', a.kind ? 'vtt-ailment-' + a.kind : '']"
           :data-title="a.title">
          <title>{{ a.title }}</title>
          <rect class="vtt-ail-bg" :x="a.x" :y="a.y" :width="a.w" :height="a.h" :rx="a.h * 0.3"
                :stroke-width="ri * 0.025"/>
          <text class="vtt-ail" :x="a.x + a.w / 2" :y="a.y + a.h / 2" dy="0.36em" text-anchor="middle"
                :font-size="a.fs">{{ a.text }}</text>
        </g>
      </svg>
    </g>`,
};

// ---------------------------------------------------------------------------------------------------------
// A big map's first frame. A map of FIRST_FRAME_MIN tokens or more that opens at low detail (where a token shows
// its body only: its name, bars and badges are hidden) draws its tokens' bodies first as plain SVG elements, and
// replaces them by their components after that frame, FIRST_FRAME_CHUNK a task: making 500 components took most
// of the time before a big map's first frame. A token that changes, is dropped or becomes active is made at once;
// zooming in past low detail makes them all.
const FIRST_FRAME_MIN = 100;
const FIRST_FRAME_CHUNK = 25;

// VttToken's computed values for a plain token, each worked out when first read: no component, no reactivity.
function tokenFacts(t, geo, stack) {
  const memo = {};
  const facts = new Proxy(
    { t, geo, stack, active: false, moved: false },
    {
      get(base, key) {
        if (key in base) return base[key];
        if (!(key in memo)) memo[key] = VttToken.computed[key].call(facts);
        return memo[key];
      },
    },
  );
  return facts;
}

// A token's body as VttToken draws it at low detail (neither active nor with a picture), as plain SVG elements.
function tokenBody(t, geo, stack) {
  const f = tokenFacts(t, geo, stack);
  const [cx, cy] = f.center;
  const { rb, ri, multi } = f;
  const ry = t.prone ? rb * 0.62 : rb;
  const color = t.color || "#777";
  const classes = f.classes;
  const g = svgEl("g", {
    class: Object.keys(classes).filter((k) => classes[k]).join(" "),
    "data-token-id": t.id,
    "data-q": f.anchor[0],
    "data-r": f.anchor[1],
    "data-grit": f.grit,
    "data-size": f.size,
  });
  if (f.place) g.setAttribute("transform", f.place);
  if (stack) g.setAttribute("data-stack", stack);
  if (t.hidden) g.setAttribute("data-hidden", "true");
  for (const c of f.foot) {
    const at = { class: "vtt-foot", points: c.points, "data-q": c.q, "data-r": c.r };
    if (f.slot) at.class = "vtt-foot vtt-foot-shared";
    else
      Object.assign(at, {
        fill: color, "fill-opacity": multi ? 0.55 : 0.22, stroke: multi ? "rgba(0,0,0,0.22)" : color,
        "stroke-opacity": multi ? 1 : 0.55, "stroke-width": multi ? 1 : ri * 0.06,
      });
    g.appendChild(svgEl("polygon", at));
  }
  if (multi) g.appendChild(svgEl("path", { d: f.outline, class: "vtt-foot-outline", "stroke-width": ri * 0.14 }));
  g.appendChild(
    svgEl("ellipse", { class: "vtt-body", cx, cy, rx: rb, ry, fill: color, "stroke-width": Math.max(1.5, rb * 0.09) }),
  );
  g.appendChild(
    svgEl("ellipse", {
      cx, cy, rx: rb * 0.8, ry: ry * 0.8, fill: "none", stroke: "rgba(255,255,255,0.28)",
      "stroke-width": Math.max(1, rb * 0.05), "pointer-events": "none",
    }),
  );
  if (t.dead) {
    const m = svgEl("g", { class: "vtt-dead-mark", "stroke-width": rb * 0.16 });
    const d = rb * 0.6;
    m.appendChild(svgEl("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d }));
    m.appendChild(svgEl("line", { x1: cx + d, y1: cy - d, x2: cx - d, y2: cy + d }));
    g.appendChild(m);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// A token of a map's token table, with its key as its id when it names none itself.
function withId(t, key) {
  return { ...t, id: t && t.id != null ? t.id : key };
}

function cloneJson(v) {
  return v == null ? v : JSON.parse(JSON.stringify(v));
}

function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

// Copy `src` into the reactive `dst` in place, touching only the fields that changed. `replace`: also delete the
// fields `src` lacks (a full token); otherwise `src` is a partial patch (a field set to null is applied too).
function assignInPlace(dst, src, replace) {
  if (replace) for (const key of Object.keys(dst)) if (!(key in src)) delete dst[key];
  for (const [key, value] of Object.entries(src)) if (!sameJson(dst[key], value)) dst[key] = cloneJson(value);
}

// The space ("q,r") of a token that lies on exactly one space, or null.
function soleCell(t) {
  const cells = t && t.cells;
  if (!Array.isArray(cells) || cells.length !== 1 || !Array.isArray(cells[0]) || cells[0].length < 2) return null;
  return cellKey(cells[0][0], cells[0][1]);
}

// Which single-space tokens lie on each space, kept token by token: a move touches its two spaces only.
class SpaceIndex {
  constructor() {
    this.cellOf = new Map(); // id -> "q,r"
    this.byCell = new Map(); // "q,r" -> Set of ids
    this.shared = new Set(); // the spaces of two tokens or more
  }

  // `id` now lies on `cell` (null: on none, or on several); whether a shared space gained or lost a token.
  set(id, cell) {
    const old = this.cellOf.get(id) ?? null;
    if (old === cell) return false;
    let changed = false;
    if (old !== null) {
      const here = this.byCell.get(old);
      changed = here.size >= 2;
      here.delete(id);
      if (here.size < 2) this.shared.delete(old);
      if (!here.size) this.byCell.delete(old);
      this.cellOf.delete(id);
    }
    if (cell !== null) {
      let there = this.byCell.get(cell);
      if (!there) this.byCell.set(cell, (there = new Set()));
      there.add(id);
      this.cellOf.set(id, cell);
      if (there.size >= 2) {
        this.shared.add(cell);
        changed = true;
      }
    }
    return changed;
  }

  // Slot of every token that shares its space, as one string "id\u0001i/n" joined by "\u0000" (spaces and the
  // ids in each sorted, so that every client draws a space the same way and equal slots make equal strings).
  key() {
    const parts = [];
    for (const cell of [...this.shared].sort()) {
      const list = [...this.byCell.get(cell)].sort();
      list.forEach((id, i) => parts.push(id + "\u0001" + i + "/" + list.length));
    }
    return parts.join("\u0000");
  }
}

function spaceIndexOf(ids, local) {
  const index = new SpaceIndex();
  for (const id of ids) index.set(id, soleCell(local[id]));
  return index;
}

let uidCounter = 0;
const MAX_STROKE = 5000;
const SVG_NS = "http://www.w3.org/2000/svg";
// A held ruler sends its end at most this often (ms); the server counts at most RULER_UPDATES_MAX a second.
const RULER_EVERY_MS = 60;
// A touch held this long (ms) without moving pings its space.
const LONG_PRESS_MS = 600;
const KEY_PAN_PX = 80;
const KEY_ZOOM = 1.25;

// A layer of its own (will-change: transform) moved by the pointer: its translation is set as a zero-length animation
// held at its end, which the compositor applies. Setting its style instead redoes the layering of the whole page at
// each move (1 to 2 ms a frame on a map of 500 tokens).
const slides = new WeakMap();
function slideTo(el, x, y) {
  const keyframes = [{ transform: `translate(${fmt(x)}px, ${fmt(y)}px)` }];
  const slide = slides.get(el);
  if (slide) slide.effect.setKeyframes(keyframes);
  else slides.set(el, el.animate(keyframes, { duration: 0, fill: "forwards" }));
}
function stopSlide(el) {
  const slide = slides.get(el);
  if (slide) slide.cancel();
  slides.delete(el);
}

// A box [x0, y0, x1, y1] grown by `m` on every side and rounded outwards to whole pixels.
function grownBox([x0, y0, x1, y1], m) {
  return [Math.floor(x0 - m), Math.floor(y0 - m), Math.ceil(x1 + m), Math.ceil(y1 + m)];
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// Whether a key pressed in `target` is typing (a text field, a select, an editable element): the map's keys wait.
function typingIn(target) {
  if (!target) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !!target.isContentEditable;
}

// A layer of the board: its spaces ([q, r], or [q, r, tier] for Uneven Ground), given as a list or, for a long
// layer, packed by the server (map_view.py `_pack`): {packed: base64, bits, width, cols, rows, hex}, a bitmap of
// `bits` bits a space (its tier, or 1), spaces row by row, first bit highest.
function unpackCells(layer) {
  if (!layer) return [];
  if (Array.isArray(layer)) return cloneJson(layer);
  if (typeof layer.packed !== "string") return [];
  const bytes = atob(layer.packed);
  const bits = Number(layer.bits) || 1;
  const cols = Number(layer.cols) || 0;
  const total = cols * (Number(layer.rows) || 0);
  const out = [];
  for (let i = 0; i < total; i++) {
    let value = 0;
    for (let b = 0; b < bits; b++) {
      const pos = i * bits + b;
      if (bytes.charCodeAt(pos >> 3) & (0x80 >> (pos & 7))) value |= 1 << (bits - 1 - b);
    }
    if (!value) continue;
    const row = Math.floor(i / cols);
    const col = i % cols;
    const q = layer.hex ? col - (row - (row & 1)) / 2 : col;
    out.push(layer.width === 3 ? [q, row, value] : [q, row]);
  }
  return out;
}

// The fog of war from the component's prop (or a setFog call): {visible, remembered, preview}, spaces unpacked.
function fogOf(fog) {
  if (!fog || typeof fog !== "object") return null;
  return { visible: unpackCells(fog.visible), remembered: unpackCells(fog.remembered), preview: !!fog.preview };
}

// The tokens a page carries in its head as JSON (see the `tokensFrom` prop), or null; the element is then removed.
function headTokens(id) {
  const el = id ? document.getElementById(id) : null;
  if (!el || el.type !== "application/json") return null;
  el.remove();
  try {
    const tokens = JSON.parse(el.textContent);
    return tokens && typeof tokens === "object" ? tokens : null;
  } catch (e) {
    return null;
  }
}

// The board's parts, copied from the component's props (patched later by setBoard).
function boardOf(props) {
  const terrain = props.terrain || {};
  return {
    cols: props.cols,
    rows: props.rows,
    walls: unpackCells(props.walls),
    objects: cloneJson(props.objects) || [],
    water: unpackCells(terrain.water),
    uneven: unpackCells(terrain.uneven),
    conductive: unpackCells(terrain.conductive),
  };
}

export default {
  components: { VttBoard, VttHighlights, VttToken },
  props: {
    grid: { type: String, default: "hex" },
    cols: { type: Number, default: 10 },
    rows: { type: Number, default: 10 },
    cell: { type: Number, default: 32 },
    // a list of spaces, or packed (see unpackCells)
    walls: { type: [Array, Object], default: () => [] },
    objects: { type: Array, default: () => [] },
    // {water: [[q, r], ...], uneven: [[q, r, tier], ...], conductive: [[q, r], ...]}, each a list or packed
    terrain: { type: Object, default: () => ({}) },
    // {image, offset: [x, y], cell_px, opacity} or null
    background: { type: Object, default: null },
    tokens: { type: Object, default: () => ({}) },
    // the id of a JSON script in the page's head holding the tokens instead (a big map: map_view.py
    // `TOKENS_IN_PAGE_MAX`), read once as the map is created
    tokensFrom: { type: String, default: null },
    highlights: { type: Array, default: () => [] },
    active: { type: String, default: null },
    // null: play; "paint": a press and drag paints a stroke of spaces (emits paint_stroke); "place": clicks on
    // spaces place something (cursor only: cell_click as usual)
    mode: { type: String, default: null },
    // the ruler toggle (and R), pings (Alt-click, a long press) and the keys E and Ctrl+Z for the page
    tools: { type: Boolean, default: false },
    // fog of war, or null: {visible, remembered (each a list of spaces or packed), preview}: spaces in neither
    // are dark, remembered ones dim; a preview (the Soulweaver seeing as a player) is drawn lighter, over tokens
    fog: { type: Object, default: null },
  },
  emits: [
    "token_move", "token_refused", "token_click", "cell_click", "cancel", "paint_stroke", "drag_start",
    "ruler", "ruler_end", "ping", "key",
  ],
  data() {
    return {
      local: {},
      ids: [],
      hl: cloneJson(this.highlights) || [],
      activeId: this.active ?? null,
      bd: boardOf(this),
      bg: cloneJson(this.background) || null,
      editMode: this.mode || null,
      fogData: fogOf(this.fog),
      // A string set after each batch of token changes (`restack`) only when a shared space changed: a move
      // elsewhere costs an update of the space index (`SpaceIndex`), no reactive reads and no re-render of the map.
      stackKey: "",
      firstKey: 0, // bumped when tokens leave the first frame (`firstIds`) for their components
    };
  },
  created() {
    injectStyles();
    uidCounter += 1;
    this.uid = "m" + uidCounter; // not reactive
    this.drag = null; // not reactive: current gesture
    this.pointers = new Map(); // not reactive: active pointers (for pinch)
    this.pointerBox = null; // not reactive: the map's box while pointers are down (screenPoint)
    this.view = { x: 0, y: 0, k: 1 }; // not reactive: pan/zoom
    this.userMoved = false;
    this.lowDetail = false;
    this.previewKey = "";
    this.previewFrom = null; // the anchor space the drop outline is drawn on
    this.movePreview = null; // not reactive: the server's move preview for the token being dragged
    this.moveKey = "";
    this.rulerOn = false; // not reactive: the ruler tool is on (a press and drag measures)
    this.rulerKey = ""; // the ruler last sent ("q,r>q,r"), "" when none is held
    this.rulerLast = 0;
    this.rulerTimer = null;
    this.pressTimer = null;
    this.tokenQueue = new Map(); // not reactive: token patches waiting for the end of their message
    this.tokenFlushQueued = false;
    this.spaces = null; // not reactive: the SpaceIndex behind `stackKey`
    this.firstIds = new Set(); // not reactive: tokens drawn by the first frame, not yet by their components
    this.firstEls = new Map();
    this.firstTimer = null;
    this.firstFrame = null;
    const fromHead = headTokens(this.tokensFrom);
    if (fromHead) {
      // parsed for this map alone: taken as they are (`syncTokens` copies what the element's props share)
      const local = {};
      const ids = [];
      for (const [key, t] of Object.entries(fromHead)) {
        const token = withId(t, key);
        const id = String(token.id);
        if (!(id in local)) ids.push(id);
        local[id] = token;
      }
      this.local = local;
      this.ids = ids;
      this.restack();
    } else {
      this.syncTokens(this.tokens);
    }
    if (this.ids.length >= FIRST_FRAME_MIN) {
      const local = toRaw(this.local);
      for (const id of toRaw(this.ids)) if (id !== this.activeId && !local[id].picture) this.firstIds.add(id);
    }
  },
  mounted() {
    this.onKey = (e) => this.handleKey(e);
    window.addEventListener("keydown", this.onKey);
    this.resizeObserver = new ResizeObserver(() => {
      if (!this.userMoved) this.fit();
    });
    this.resizeObserver.observe(this.$el);
    this.modeClasses();
    this.fit();
    if (this.firstIds.size && this.lowDetail) this.drawFirstFrame();
    else this.buildTokens();
  },
  unmounted() {
    window.removeEventListener("keydown", this.onKey);
    this.clearLongPress();
    if (this.rulerTimer) clearTimeout(this.rulerTimer);
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.stopFirstFrame();
  },
  computed: {
    geo() {
      return makeGeometry(this.grid === "square" ? "square" : "hex", Number(this.cell) || 32);
    },
    stacks() {
      const out = {};
      if (this.stackKey) {
        for (const part of this.stackKey.split("\u0000")) {
          const [id, slot] = part.split("\u0001");
          out[id] = slot;
        }
      }
      return out;
    },
    wavePath() {
      const c = this.geo.cell;
      return `M0 ${fmt(c * 0.2)} q${fmt(c * 0.2)} ${fmt(-c * 0.15)} ${fmt(c * 0.4)} 0 t${fmt(c * 0.4)} 0`;
    },
    zigPath() {
      const c = this.geo.cell;
      return `M0 ${fmt(c * 0.35)} L${fmt(c * 0.125)} ${fmt(c * 0.15)} L${fmt(c * 0.25)} ${fmt(c * 0.35)} ` +
        `L${fmt(c * 0.375)} ${fmt(c * 0.15)} L${fmt(c * 0.5)} ${fmt(c * 0.35)}`;
    },
    // The fog of war as two paths (dark: never seen; dim: remembered), or null.
    fogView() {
      const f = this.fogData;
      if (!f) return null;
      const { geo } = this;
      const seen = new Set(f.visible.map(([q, r]) => cellKey(q, r)));
      const kept = new Set(f.remembered.map(([q, r]) => cellKey(q, r)));
      const dark = [];
      const dim = [];
      for (const [q, r] of geo.cells(this.bd.cols, this.bd.rows, false)) {
        const k = cellKey(q, r);
        if (seen.has(k)) continue;
        (kept.has(k) ? dim : dark).push([q, r]);
      }
      return {
        dark: dark.length ? outlinePath(geo, dark, cellSetOf(dark)) : "",
        dim: dim.length ? outlinePath(geo, dim, cellSetOf(dim)) : "",
        visible: seen.size,
        remembered: dim.length,
        preview: f.preview ? 1 : 0,
      };
    },
    // Under fog of war a tile of the background reaches past the spaces the seat knows: it is drawn on those
    // spaces only, so that the fog over the others looks the same everywhere (the picture never shows through).
    tileClip() {
      const f = this.fogData;
      if (!f || f.preview || !this.bg || !Array.isArray(this.bg.tiles)) return "";
      const known = new Map();
      for (const [q, r] of [...f.visible, ...f.remembered]) known.set(cellKey(q, r), [q, r]);
      const cells = [...known.values()];
      return cells.length ? outlinePath(this.geo, cells, (q, r) => known.has(cellKey(q, r))) : "";
    },
    // Draw order: the active token last, so that its ring stays on top of its neighbours (in a shared space).
    order() {
      const a = this.activeId == null ? null : String(this.activeId);
      if (a == null || !(a in this.local) || this.ids[this.ids.length - 1] === a) return this.ids;
      return [...this.ids.filter((id) => id !== a), a];
    },
    // the tokens drawn by their components, in draw order
    built() {
      void this.firstKey; // a dependency: `firstIds` itself is not reactive
      const first = this.firstIds;
      return first.size ? this.order.filter((id) => !first.has(id)) : this.order;
    },
  },
  watch: {
    tokens(v) {
      this.syncTokens(v);
    },
    highlights(v) {
      this.hl = cloneJson(v) || [];
    },
    active(v) {
      this.activeId = v ?? null;
    },
    activeId(v) {
      if (v != null) this.buildTokens([String(v)]);
    },
    geo() {
      this.buildTokens();
      if (!this.userMoved) this.$nextTick(() => this.fit());
    },
    // a full update of the props (a reconnect) brings the board and the background back in step
    cols() {
      this.setBoard({ cols: this.cols });
    },
    rows() {
      this.setBoard({ rows: this.rows });
    },
    walls(v) {
      this.setBoard({ walls: v });
    },
    objects(v) {
      this.setBoard({ objects: v });
    },
    terrain(v) {
      this.setBoard({ terrain: v });
    },
    background(v) {
      this.setBackground(v);
    },
    mode(v) {
      this.setMode(v);
    },
    fog(v) {
      this.setFog(v);
    },
  },
  methods: {
    // ---- called from Python ---------------------------------------------------------------------------
    // `t` is {id, ...fields}: a whole token, or only the fields that changed (null clears a field).
    // Patches and removals are applied at the end of the message that brought them (a microtask): several of one
    // message are applied together (one Vue render) and several patches of one token merged into one. Not at the
    // next animation frame: that left the DOM a frame behind the socket (up to 17 ms, all of it in a hidden tab's
    // 200 ms timer), where NiceGUI's own element updates land at once.
    patchToken(t) {
      if (!t || t.id == null) return;
      const id = String(t.id);
      const queued = this.tokenQueue.get(id);
      if (queued && queued.patch) queued.patch = { ...queued.patch, ...t };
      else if (queued) queued.patch = { ...t };
      else this.tokenQueue.set(id, { remove: false, patch: { ...t } });
      this.queueTokens();
    },
    removeToken(id) {
      this.tokenQueue.set(String(id), { remove: true, patch: null });
      this.queueTokens();
    },
    queueTokens() {
      if (this.tokenFlushQueued) return;
      this.tokenFlushQueued = true;
      queueMicrotask(() => this.flushTokens());
    },
    flushTokens() {
      this.tokenFlushQueued = false;
      if (!this.tokenQueue.size) return;
      const start = performance.now();
      const queue = this.tokenQueue;
      this.tokenQueue = new Map();
      if (this.firstIds.size) this.buildTokens([...queue.keys()]);
      for (const [id, op] of queue) {
        if (op.remove) this.dropToken(id);
        if (op.patch) this.upsertToken(op.patch, false);
      }
      this.restack(queue.keys());
      if (window.__vttMeasure === true) this.$nextTick(() => performance.measure("vtt:map", { start }));
    },
    dropToken(id) {
      id = String(id);
      if (this.drag && this.drag.id === id) this.abortGesture();
      if (!(id in this.local)) return;
      delete this.local[id];
      const i = this.ids.indexOf(id);
      if (i >= 0) this.ids.splice(i, 1);
    },
    setHighlights(list) {
      this.hl = cloneJson(list) || [];
    },
    clearHighlights() {
      this.hl = [];
    },
    setActive(id) {
      this.activeId = id ?? null;
    },
    // `patch` holds only the parts of the board that changed: cols, rows, walls, objects, terrain (a terrain
    // patch names only the layers that changed)
    setBoard(patch) {
      if (!patch) return;
      const bd = this.bd;
      const resized = ("cols" in patch && patch.cols !== bd.cols) || ("rows" in patch && patch.rows !== bd.rows);
      for (const key of ["cols", "rows", "objects"]) {
        if (key in patch && !sameJson(bd[key], patch[key])) bd[key] = cloneJson(patch[key]);
      }
      if ("walls" in patch) {
        const walls = unpackCells(patch.walls);
        if (!sameJson(bd.walls, walls)) bd.walls = walls;
      }
      const terrain = patch.terrain || {};
      for (const key of ["water", "uneven", "conductive"]) {
        if (!(key in terrain)) continue;
        const cells = unpackCells(terrain[key]);
        if (!sameJson(bd[key], cells)) bd[key] = cells;
      }
      if (resized && !this.userMoved) this.$nextTick(() => this.fit());
    },
    setFog(fog) {
      const next = fogOf(fog);
      if (!sameJson(this.fogData, next)) this.fogData = next;
    },
    setBackground(bg) {
      if (!sameJson(this.bg, bg)) this.bg = cloneJson(bg) || null;
    },
    setMode(mode) {
      mode = mode || null;
      if (mode === this.editMode) return;
      if (this.drag && this.drag.mode === "paint") this.abortGesture();
      this.editMode = mode;
      this.modeClasses();
    },
    // classes set on the DOM directly (like the pan and detail classes), never through a Vue class binding
    modeClasses() {
      const mode = this.editMode;
      const svg = this.$refs.svg;
      if (svg) {
        svg.classList.toggle("vtt-painting", mode === "paint" || mode === "erase");
        svg.classList.toggle("vtt-placing", mode === "place");
      }
    },

    // ---- state sync (full prop updates) -----------------------------------------------------------------
    syncTokens(tokens) {
      const incoming = tokens || {};
      this.tokenQueue.clear(); // the full set replaces any patch not applied yet
      this.buildTokens();
      for (const id of [...this.ids]) if (!(id in incoming)) this.dropToken(id);
      for (const [id, t] of Object.entries(incoming)) this.upsertToken(withId(t, id), true);
      this.restack();
    },
    // which tokens share a space, worked out again from all the tokens (`ids`: none) or for these tokens only
    restack(ids) {
      const local = toRaw(this.local);
      let changed = !ids || !this.spaces;
      if (changed) this.spaces = spaceIndexOf(toRaw(this.ids), local);
      else for (const id of ids) if (this.spaces.set(id, id in local ? soleCell(local[id]) : null)) changed = true;
      if (!changed) return;
      const key = this.spaces.key();
      if (key !== this.stackKey) this.stackKey = key;
    },
    upsertToken(t, replace) {
      if (!t || t.id == null) return;
      const id = String(t.id);
      if (this.local[id]) {
        assignInPlace(this.local[id], t, replace);
      } else {
        this.local[id] = cloneJson(t);
        this.ids.push(id);
      }
    },

    // ---- view (pan/zoom), applied to the DOM directly --------------------------------------------------
    applyView() {
      const { x, y, k } = this.view;
      const world = `translate(${fmt(x)} ${fmt(y)}) scale(${k})`;
      for (const name of ["world", "boardWorld", "marksWorld"]) {
        if (this.$refs[name]) this.$refs[name].setAttribute("transform", world);
      }
      const d = this.drag;
      if (d && d.mode === "token" && d.el && d.el.hasAttribute("data-dragging")) this.placeDragLayers(d);
      const low = this.geo.inner * k < LOD_INNER_PX;
      if (this.$refs.svg && !low) this.$refs.svg.style.setProperty("--vtt-name-min", fmt(NAME_MIN_PX / k));
      if (this.$refs.svg && low !== this.lowDetail) {
        this.lowDetail = low;
        this.$refs.svg.classList.toggle("vtt-lod-low", low);
        this.$refs.boardSvg.classList.toggle("vtt-lod-low", low);
      }
      if (!low && this.firstIds.size && this.$refs.svg) this.buildTokens(); // the first frame has no details
    },

    // ---- a big map's first frame (see FIRST_FRAME_MIN) ------------------------------------------------------
    drawFirstFrame() {
      const layer = this.$refs.firstTokens;
      const stacks = this.stacks;
      const frame = document.createDocumentFragment();
      for (const id of this.order) {
        if (!this.firstIds.has(id)) continue;
        const el = tokenBody(toRaw(this.local[id]), this.geo, stacks[id] || "");
        this.firstEls.set(id, el);
        frame.appendChild(el);
      }
      layer.appendChild(frame);
      // the components after the first frame; a hidden tab has no frames, the timer starts them there
      const start = () => this.buildChunk();
      this.firstFrame = requestAnimationFrame(() => {
        this.firstFrame = null;
        clearTimeout(this.firstTimer);
        this.firstTimer = setTimeout(start, 0);
      });
      this.firstTimer = setTimeout(start, 200);
    },
    buildChunk() {
      this.stopFirstFrame();
      if (!this.firstIds.size) return;
      if (this.drag && this.drag.mode === "token") {
        this.firstTimer = setTimeout(() => this.buildChunk(), 50); // never under a token being dragged
        return;
      }
      const ids = [];
      for (const id of this.firstIds) {
        ids.push(id);
        if (ids.length === FIRST_FRAME_CHUNK) break;
      }
      this.buildTokens(ids);
      if (this.firstIds.size) this.firstTimer = setTimeout(() => this.buildChunk(), 0);
    },
    // These tokens (all without `ids`) leave the first frame: their components draw them from the next render on.
    buildTokens(ids) {
      if (!this.firstIds.size) return;
      let built = 0;
      for (const id of ids || [...this.firstIds]) {
        if (!this.firstIds.delete(id)) continue;
        built += 1;
        const el = this.firstEls.get(id);
        if (el) el.remove();
        this.firstEls.delete(id);
      }
      if (!this.firstIds.size) this.stopFirstFrame();
      if (built) this.firstKey += 1;
    },
    stopFirstFrame() {
      if (this.firstFrame) cancelAnimationFrame(this.firstFrame);
      if (this.firstTimer) clearTimeout(this.firstTimer);
      this.firstFrame = null;
      this.firstTimer = null;
    },
    fit() {
      const el = this.$el;
      if (!el || !el.clientWidth || !el.clientHeight) return;
      const [mw, mh] = this.geo.size(this.bd.cols, this.bd.rows);
      const pad = 24;
      const top = this.tools ? TOOLS_PX : pad;
      const k = Math.max(
        MIN_ZOOM,
        Math.min(1.5, (el.clientWidth - 2 * pad) / mw, (el.clientHeight - top - pad) / mh),
      );
      // a portrait screen (phone, tablet) shows the map at its top: the panels' bottom sheet opens below it
      const portrait = el.clientHeight > el.clientWidth;
      const y = portrait ? top : top + (el.clientHeight - top - pad - mh * k) / 2;
      this.view = { k, x: (el.clientWidth - mw * k) / 2, y };
      if (portrait && this.geo.inner * k < FIT_READABLE_PX) this.fitTokens(el, k);
      this.applyView();
    },
    // A portrait screen (a phone) where the whole map would be too small to read: show the tokens' part of it
    // (with a margin of two spaces), never smaller than the whole map would be.
    fitTokens(el, kWhole) {
      const ids = this.ids.filter((id) => this.local[id]);
      if (!ids.length) return;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const id of ids) {
        for (const c of this.local[id].cells || []) {
          if (!Array.isArray(c) || c.length < 2) continue;
          const [x, y] = this.geo.center(c[0], c[1]);
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      }
      if (!(x1 >= x0)) return;
      const m = this.geo.cell * 2.5;
      [x0, y0, x1, y1] = [x0 - m, y0 - m, x1 + m, y1 + m];
      const k = Math.max(kWhole, Math.min(1.5, el.clientWidth / (x1 - x0), el.clientHeight / (y1 - y0)));
      this.view = { k, x: el.clientWidth / 2 - ((x0 + x1) / 2) * k, y: -y0 * k };
    },
    zoomAt(p, factor) {
      const v = this.view;
      const k = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, v.k * factor));
      this.view = { k, x: p.x - ((p.x - v.x) * k) / v.k, y: p.y - ((p.y - v.y) * k) / v.k };
      this.userMoved = true;
      this.applyView();
    },
    // A point of a pointer event in the map's pixels. While pointers are down, the map's box is the one read at the
    // last press (no layout read per move: the map does not move under a gesture).
    screenPoint(e, box) {
      const rect = box || (this.pointers.size && this.pointerBox) || this.$refs.svg.getBoundingClientRect();
      return { x: e.clientX - rect.left, y: e.clientY - rect.top };
    },
    toWorld(p) {
      return { x: (p.x - this.view.x) / this.view.k, y: (p.y - this.view.y) / this.view.k };
    },
    tokenCenter(t) {
      const cells = (t.cells || []).filter((c) => Array.isArray(c) && c.length >= 2);
      if (!cells.length) return [0, 0];
      let x = 0;
      let y = 0;
      for (const [q, r] of cells) {
        const [cx, cy] = this.geo.center(q, r);
        x += cx;
        y += cy;
      }
      x /= cells.length;
      y /= cells.length;
      const slot = cells.length === 1 ? parseStack(this.stacks[String(t.id)]) : null;
      return slot ? [x + slot.dx * this.geo.inner, y + slot.dy * this.geo.inner] : [x, y];
    },

    // ---- pointer gestures ----------------------------------------------------------------------------
    onWheel(e) {
      const step = e.deltaMode === 1 ? 0.05 : e.deltaMode === 2 ? 0.5 : 0.0015;
      this.zoomAt(this.screenPoint(e), Math.exp(-e.deltaY * step));
    },
    onDown(e) {
      const painting = this.editMode === "paint" || this.editMode === "erase";
      const otherButton = e.pointerType === "mouse" && e.button !== 0;
      // while painting, the middle or right button pans (the left one paints)
      if (otherButton && !(painting && (e.button === 1 || e.button === 2))) return;
      this.pointerBox = this.$refs.svg.getBoundingClientRect();
      const p = this.screenPoint(e, this.pointerBox);
      if (this.tools && e.altKey && this.pointers.size === 0) {
        e.preventDefault();
        this.pingAt(p);
        return;
      }
      const g = e.target && e.target.closest ? e.target.closest("[data-token-id]") : null;
      // A press on a token holds the pointer on the token itself. Held by the map, the pointer would leave the
      // token's :hover at the first move and come back to it at the drop: two frames that restyle, hit-test,
      // repaint and re-layer the whole map.
      const holder = g && this.pointers.size === 0 ? g : this.$refs.svg;
      this.pointers.set(e.pointerId, p);
      try {
        holder.setPointerCapture(e.pointerId);
      } catch (err) {
        // synthetic events (tests) have no capturable pointer
      }
      if (this.pointers.size === 2) {
        this.abortGesture();
        const [a, b] = [...this.pointers.values()];
        this.drag = {
          mode: "pinch",
          dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)),
          mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
          view0: { ...this.view },
        };
        return;
      }
      if (this.pointers.size > 2) return;
      if (this.tools && this.rulerOn && !otherButton) {
        const from = this.cellAt(p);
        if (from) {
          this.drag = { mode: "ruler", from, to: from };
          this.rulerSend();
          return;
        }
      }
      if (painting && otherButton) {
        this.drag = { mode: "pan", start: p, moved: true, view0: { ...this.view } };
        return;
      }
      if (painting) {
        this.drag = { mode: "paint", cells: new Map(), last: null };
        this.paintTo(p);
        return;
      }
      const id = g ? g.getAttribute("data-token-id") : null;
      if (id != null && this.local[id]) {
        const t = this.local[id];
        const draggable = !!t.draggable && Array.isArray(t.cells) && t.cells.length > 0;
        this.drag = { mode: "token", id, el: g, start: p, moved: false, draggable, target: null };
      } else {
        this.drag = { mode: "pan", start: p, moved: false, view0: { ...this.view } };
      }
      if (this.tools && e.pointerType !== "mouse") this.armLongPress(this.drag);
    },
    onMove(e) {
      if (!this.pointers.has(e.pointerId)) return;
      const p = this.screenPoint(e);
      this.pointers.set(e.pointerId, p);
      const d = this.drag;
      if (!d) return;
      if (d.mode === "pinch") {
        if (this.pointers.size < 2) return;
        const [a, b] = [...this.pointers.values()];
        const dist = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        const v0 = d.view0;
        const k = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, (v0.k * dist) / d.dist));
        const wx = (d.mid.x - v0.x) / v0.k;
        const wy = (d.mid.y - v0.y) / v0.k;
        this.view = { k, x: mid.x - wx * k, y: mid.y - wy * k };
        this.userMoved = true;
        this.applyView();
        return;
      }
      if (d.mode === "paint") {
        this.paintTo(p);
        return;
      }
      if (d.mode === "ruler") {
        const to = this.cellAt(p);
        if (to && (to[0] !== d.to[0] || to[1] !== d.to[1])) {
          d.to = to;
          this.rulerSend();
        }
        return;
      }
      const dx = p.x - d.start.x;
      const dy = p.y - d.start.y;
      if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.moved = true;
      if (d.mode === "pan") {
        this.$refs.svg.classList.add("vtt-panning");
        this.view = { ...this.view, x: d.view0.x + dx, y: d.view0.y + dy };
        this.userMoved = true;
        this.applyView();
      } else if (d.mode === "token" && d.draggable) {
        const k = this.view.k;
        if (!d.el.hasAttribute("data-dragging")) {
          this.showDragVisual(d);
          this.movePreview = null;
          this.$emit("drag_start", { id: d.id });
        }
        slideTo(this.$refs.dragGhost, dx, dy);
        d.target = this.snapTarget(d.id, dx / k, dy / k);
        this.showPreview(d.id, d.target);
        this.showMoveAt(d.target, p);
      }
    },
    onUp(e) {
      if (!this.pointers.has(e.pointerId)) return;
      const p = this.screenPoint(e);
      this.pointers.delete(e.pointerId);
      try {
        e.target.releasePointerCapture(e.pointerId); // the map or the pressed token
      } catch (err) {
        // ignore
      }
      const d = this.drag;
      if (!d) return;
      if (d.mode === "pinch") {
        if (this.pointers.size === 1) {
          const [rest] = [...this.pointers.values()];
          this.drag = { mode: "pan", start: rest, moved: true, view0: { ...this.view } };
        } else if (this.pointers.size === 0) {
          this.drag = null;
        }
        return;
      }
      if (this.pointers.size > 0) return;
      this.drag = null;
      this.clearLongPress();
      this.$refs.svg.classList.remove("vtt-panning");
      if (d.pinged) return; // a long press pinged: no click, no drop
      if (d.mode === "ruler") {
        this.rulerRelease();
        return;
      }
      if (d.mode === "paint") {
        this.paintTo(p);
        this.showStroke(null);
        const cells = [...d.cells.values()];
        if (cells.length) this.$emit("paint_stroke", { cells, erase: this.editMode === "erase" });
        return;
      }
      if (d.mode === "token") {
        const t = this.local[d.id];
        const move = t && d.moved && d.draggable ? this.dropMove(d, p) : null;
        // the server hears of the drop first; the page's own redraw waits for the send
        if (move) this.$emit("token_move", move);
        this.clearDragVisual(d);
        if (!t) return;
        if (!d.moved) {
          this.clickToken(d.id);
          return;
        }
        if (!d.draggable) {
          this.$emit("token_refused", { id: d.id });
          return;
        }
        if (!move) return;
        const [aq, ar] = t.cells[0];
        this.buildTokens([d.id]);
        t.cells = t.cells.map(([cq, cr]) => [cq + move.q - aq, cr + move.r - ar]);
      } else if (d.mode === "pan" && !d.moved) {
        const w = this.toWorld(p);
        const [q, r] = this.geo.pixelToCell(w.x, w.y);
        if (this.geo.inBounds(q, r, this.bd.cols, this.bd.rows)) this.$emit("cell_click", { q, r });
        else this.$emit("cancel", {});
      }
    },
    // The move a token drag `d` released at screen point `p` asks for (its anchor's new space and the version
    // it was dragged from), or null where it would stay.
    dropMove(d, p) {
      const t = this.local[d.id];
      const k = this.view.k;
      const [q, r] = this.snapTarget(d.id, (p.x - d.start.x) / k, (p.y - d.start.y) / k);
      const [aq, ar] = t.cells[0];
      return q === aq && r === ar ? null : { id: d.id, q, r, v: t.v };
    },
    onPointerCancel(e) {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) this.abortGesture();
    },
    onContextMenu(e) {
      // the right button pans while painting: no browser menu then
      if (this.editMode) {
        e.preventDefault();
        return;
      }
      // a right click (or a long press) on a token opens its menu, as a click does
      const g = e.target && e.target.closest ? e.target.closest("[data-token-id]") : null;
      const id = g ? g.getAttribute("data-token-id") : null;
      if (id != null && this.local[id]) {
        e.preventDefault();
        this.abortGesture();
        this.clickToken(id);
        return;
      }
      // a long press on a space pings it: no browser menu then
      if (this.tools && this.drag && this.drag.touch) e.preventDefault();
    },
    handleKey(e) {
      if (typingIn(e.target)) return;
      if (e.key === "Escape") {
        this.setRuler(false);
        this.showKeys(false);
        this.abortGesture();
        this.$emit("cancel", {});
        return;
      }
      // a key a field, menu or dialog of the page already took (arrows in a list, say) is not the map's
      if (e.isComposing || e.defaultPrevented) return;
      if (e.target && e.target.closest && e.target.closest(".q-field, .q-menu, .q-dialog")) return;
      const ctrl = e.ctrlKey || e.metaKey;
      const dialogOpen = !!document.querySelector(".q-dialog");
      if (ctrl && !e.altKey && (e.key === "z" || e.key === "Z")) {
        if (!this.tools || dialogOpen) return;
        e.preventDefault();
        if (!e.repeat) this.$emit("key", { key: e.shiftKey ? "redo" : "undo" });
        return;
      }
      if (ctrl || e.altKey) return;
      const pans = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      if (e.key in pans) {
        e.preventDefault();
        const [dx, dy] = pans[e.key];
        this.panBy(dx * KEY_PAN_PX, dy * KEY_PAN_PX);
      } else if (e.key === "+" || e.key === "=") {
        e.preventDefault();
        this.zoomCentre(KEY_ZOOM);
      } else if (e.key === "-" || e.key === "_") {
        e.preventDefault();
        this.zoomCentre(1 / KEY_ZOOM);
      } else if (this.tools && !dialogOpen && (e.key === "r" || e.key === "R")) {
        if (!e.repeat) this.toggleRuler();
      } else if (this.tools && !dialogOpen && (e.key === "e" || e.key === "E")) {
        if (!e.repeat) this.$emit("key", { key: "end_turn" });
      }
    },
    panBy(dx, dy) {
      this.view = { ...this.view, x: this.view.x + dx, y: this.view.y + dy };
      this.userMoved = true;
      this.applyView();
    },
    zoomCentre(factor) {
      const el = this.$el;
      this.zoomAt({ x: (el.clientWidth || 0) / 2, y: (el.clientHeight || 0) / 2 }, factor);
    },
    // ---- the ruler and pings (drawn from what the server relays: the same on every page of the table) -------
    cellAt(p) {
      const w = this.toWorld(p);
      const [q, r] = this.geo.pixelToCell(w.x, w.y);
      return this.geo.inBounds(q, r, this.bd.cols, this.bd.rows) ? [q, r] : null;
    },
    toggleRuler() {
      this.setRuler(!this.rulerOn);
    },
    setRuler(on) {
      on = !!on && this.tools;
      if (on === this.rulerOn) return;
      this.rulerOn = on;
      if (!on && this.drag && this.drag.mode === "ruler") this.abortGesture();
      if (this.$refs.svg) this.$refs.svg.classList.toggle("vtt-measuring", on);
      const button = this.$refs.rulerButton;
      if (button) {
        button.classList.toggle("vtt-on", on);
        button.setAttribute("aria-pressed", String(on));
      }
    },
    showKeys(open) {
      const panel = this.$refs.keysHelp;
      if (!panel) return;
      const show = open === undefined ? !panel.classList.contains("vtt-open") : !!open;
      panel.classList.toggle("vtt-open", show);
      if (this.$refs.keysButton) this.$refs.keysButton.setAttribute("aria-expanded", String(show));
    },
    // Send the held ruler's spaces when they changed, at most once every RULER_EVERY_MS (the last one always).
    rulerSend() {
      const d = this.drag;
      if (!d || d.mode !== "ruler") return;
      const key = cellKey(d.from[0], d.from[1]) + ">" + cellKey(d.to[0], d.to[1]);
      if (key === this.rulerKey) return;
      const wait = this.rulerLast + RULER_EVERY_MS - performance.now();
      if (wait > 0) {
        if (!this.rulerTimer) {
          this.rulerTimer = setTimeout(() => {
            this.rulerTimer = null;
            this.rulerSend();
          }, wait);
        }
        return;
      }
      this.rulerKey = key;
      this.rulerLast = performance.now();
      this.$emit("ruler", { from: [d.from[0], d.from[1]], to: [d.to[0], d.to[1]] });
    },
    rulerRelease() {
      if (this.rulerTimer) clearTimeout(this.rulerTimer);
      this.rulerTimer = null;
      if (!this.rulerKey) return;
      this.rulerKey = "";
      this.$emit("ruler_end", {});
    },
    pingAt(p) {
      const cell = this.cellAt(p);
      if (cell) this.$emit("ping", { q: cell[0], r: cell[1] });
    },
    armLongPress(d) {
      this.clearLongPress();
      if (!d || (d.mode !== "pan" && d.mode !== "token")) return;
      d.touch = true;
      this.pressTimer = setTimeout(() => {
        this.pressTimer = null;
        if (this.drag !== d || d.moved || this.pointers.size !== 1) return;
        d.pinged = true;
        this.pingAt(d.start);
      }, LONG_PRESS_MS);
    },
    clearLongPress() {
      if (this.pressTimer) clearTimeout(this.pressTimer);
      this.pressTimer = null;
    },
    // A ruler {hand, name, from: [q, r], to: [q, r], distance} (hand: whose, on which page): a line, its end space
    // and the distance.
    showRuler(m) {
      const layer = this.$refs.rulers;
      if (!layer || !m || m.hand == null || !Array.isArray(m.from) || !Array.isArray(m.to)) return;
      const hand = String(m.hand);
      this.clearRuler(hand);
      const from = [Number(m.from[0]), Number(m.from[1])];
      const to = [Number(m.to[0]), Number(m.to[1])];
      const distance = Number(m.distance);
      const [x1, y1] = this.geo.center(...from);
      const [x2, y2] = this.geo.center(...to);
      const c = this.geo.cell;
      const g = svgEl("g", {
        class: "vtt-ruler",
        "data-role": "ruler",
        "data-hand": hand,
        "data-from": cellKey(...from),
        "data-to": cellKey(...to),
        "data-distance": distance,
      });
      g.append(
        svgEl("path", { class: "vtt-ruler-end", d: cellsPath(this.geo, [to]) }),
        svgEl("line", { class: "vtt-ruler-line", x1: fmt(x1), y1: fmt(y1), x2: fmt(x2), y2: fmt(y2) }),
        svgEl("circle", { class: "vtt-ruler-dot", cx: fmt(x1), cy: fmt(y1), r: fmt(c * 0.12) }),
        svgEl("circle", { class: "vtt-ruler-dot", cx: fmt(x2), cy: fmt(y2), r: fmt(c * 0.12) }),
      );
      const size = Math.max(c * 0.55, 13 / this.view.k);
      const x = fmt(x2 + c * 0.45);
      const label = svgEl("text", {
        class: "vtt-ruler-label",
        "data-role": "ruler-label",
        "data-distance": distance,
        x,
        y: fmt(y2 - c * 0.45),
        "font-size": fmt(size),
        "stroke-width": fmt(size * 0.28),
      });
      const amount = svgEl("tspan", { class: "vtt-ruler-distance" });
      amount.textContent = distance + (distance === 1 ? " space" : " spaces");
      const who = svgEl("tspan", { class: "vtt-ruler-who", x, dy: fmt(size * 1.05), "font-size": fmt(size * 0.75) });
      who.textContent = String(m.name ?? "");
      label.append(amount, who);
      g.append(label);
      layer.append(g);
    },
    clearRuler(hand) {
      const layer = this.$refs.rulers;
      if (!layer) return;
      for (const g of [...layer.children]) if (g.getAttribute("data-hand") === String(hand)) g.remove();
    },
    // A ping {seat, name, space: [q, r], seconds}: rings spreading from the space for a few seconds.
    showPing(m) {
      const layer = this.$refs.pings;
      if (!layer || !m || !Array.isArray(m.space)) return;
      const cell = [Number(m.space[0]), Number(m.space[1])];
      const [x, y] = this.geo.center(...cell);
      const c = this.geo.cell;
      const g = svgEl("g", {
        class: "vtt-ping",
        "data-role": "ping",
        "data-seat": String(m.seat ?? ""),
        "data-cell": cellKey(...cell),
      });
      const size = Math.max(c * 0.5, 12 / this.view.k);
      const name = svgEl("text", {
        class: "vtt-ping-name",
        x: fmt(x),
        y: fmt(y - c * 1.35),
        "text-anchor": "middle",
        "font-size": fmt(size),
        "stroke-width": fmt(size * 0.3),
      });
      name.textContent = String(m.name ?? "");
      g.append(
        svgEl("circle", { class: "vtt-ping-ring", cx: fmt(x), cy: fmt(y), r: fmt(c * 1.1) }),
        svgEl("circle", { class: "vtt-ping-ring vtt-later", cx: fmt(x), cy: fmt(y), r: fmt(c * 1.1) }),
        svgEl("circle", { class: "vtt-ping-dot", cx: fmt(x), cy: fmt(y), r: fmt(c * 0.16) }),
        name,
      );
      layer.append(g);
      const seconds = Math.min(10, Math.max(0.5, Number(m.seconds) || 4));
      setTimeout(() => g.remove(), seconds * 1000);
    },
    abortGesture() {
      const d = this.drag;
      this.drag = null;
      this.clearLongPress();
      if (d && d.mode === "ruler") this.rulerRelease();
      if (d && d.mode === "token") this.clearDragVisual(d);
      if (d && d.mode === "paint") this.showStroke(null);
      if (this.$refs.svg) this.$refs.svg.classList.remove("vtt-panning");
    },
    // The dragged token stays in the map, dimmed; a copy of it (no ids, no data attributes: nothing a selector of
    // the map's tokens finds) follows the pointer in the drag layer, drawn with the map's zoom and level of detail.
    showDragVisual(d) {
      const ghost = d.el.cloneNode(true);
      for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
        for (const name of el.getAttributeNames()) {
          if (name === "id" || name.startsWith("data-")) el.removeAttribute(name);
        }
      }
      const svg = this.$refs.svg;
      const layer = this.$refs.dragGhost;
      const ghostSvg = this.$refs.ghostSvg;
      stopSlide(layer);
      this.placeDragLayers(d);
      d.el.setAttribute("data-dragging", "");
      ghostSvg.classList.toggle("vtt-lod-low", svg.classList.contains("vtt-lod-low"));
      ghostSvg.style.setProperty("--vtt-name-min", svg.style.getPropertyValue("--vtt-name-min"));
      this.$refs.ghostWorld.replaceChildren(ghost);
    },
    // The ghost's layer covers the dragged token as drawn now (its name plate and marks, their strokes and the
    // active ring's glow), the drop outline's layer the token's spaces.
    placeDragLayers(d) {
      const k = this.view.k;
      const own = this.$refs.svg.getBoundingClientRect();
      const b = d.el.getBoundingClientRect();
      const ghost = [b.left - own.left, b.top - own.top, b.right - own.left, b.bottom - own.top];
      this.placeLayer("dragGhost", "ghostWorld", grownBox(ghost, 6 + this.geo.inner * 0.5 * k));
      this.placeLayer("dropLayer", "dropWorld", grownBox(this.screenBox(this.local[d.id].cells), 4));
    },
    // The box [x0, y0, x1, y1] of spaces `cells` on the map's screen (px).
    screenBox(cells) {
      const { x, y, k } = this.view;
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [q, r] of cells) {
        for (const [cx, cy] of this.geo.corners(q, r)) {
          const sx = x + cx * k;
          const sy = y + cy * k;
          box[0] = Math.min(box[0], sx);
          box[1] = Math.min(box[1], sy);
          box[2] = Math.max(box[2], sx);
          box[3] = Math.max(box[3], sy);
        }
      }
      return box;
    },
    // Layer `name` over the box [x0, y0, x1, y1] of the map (px), its world group `world` drawn as the map's.
    placeLayer(name, world, [x0, y0, x1, y1]) {
      const style = this.$refs[name].style;
      style.left = x0 + "px";
      style.top = y0 + "px";
      style.width = x1 - x0 + "px";
      style.height = y1 - y0 + "px";
      const { x, y, k } = this.view;
      this.$refs[world].setAttribute("transform", `translate(${fmt(x - x0)} ${fmt(y - y0)}) scale(${k})`);
    },
    clearDragVisual(d) {
      if (d.el) d.el.removeAttribute("data-dragging");
      if (this.$refs.ghostWorld) this.$refs.ghostWorld.replaceChildren();
      if (this.$refs.dragGhost) stopSlide(this.$refs.dragGhost);
      this.showPreview(null, null);
      this.clearMovePreview();
    },
    // Add the spaces from the stroke's last point to screen point `p` (sampled every quarter space, so that a fast
    // drag leaves no gaps) to the current paint stroke.
    paintTo(p) {
      const d = this.drag;
      if (!d || d.mode !== "paint") return;
      const w = this.toWorld(p);
      const from = d.last || w;
      const step = this.geo.inner * 0.5;
      const n = Math.max(1, Math.ceil(Math.hypot(w.x - from.x, w.y - from.y) / step));
      let added = false;
      for (let i = 0; i <= n; i++) {
        const x = from.x + ((w.x - from.x) * i) / n;
        const y = from.y + ((w.y - from.y) * i) / n;
        const [q, r] = this.geo.pixelToCell(x, y);
        const k = cellKey(q, r);
        if (!d.cells.has(k) && this.geo.inBounds(q, r, this.bd.cols, this.bd.rows) && d.cells.size < MAX_STROKE) {
          d.cells.set(k, [q, r]);
          added = true;
        }
      }
      d.last = w;
      if (added) this.showStroke([...d.cells.values()]);
    },
    showStroke(cells) {
      const el = this.$refs.stroke;
      if (!el) return;
      el.classList.toggle("vtt-erasing", this.editMode === "erase");
      el.setAttribute("d", cells && cells.length ? outlinePath(this.geo, cells, cellSetOf(cells)) : "");
    },
    snapTarget(id, wdx, wdy) {
      const t = this.local[id];
      const [aq, ar] = t.cells[0];
      const [cx, cy] = this.geo.center(aq, ar);
      return this.geo.pixelToCell(cx + wdx, cy + wdy);
    },
    // The drop outline is drawn once per drag, on the token's own spaces, and its layer slides to the target (the
    // compositor's work): a new outline at each target re-layered the whole map.
    showPreview(id, target) {
      const el = this.$refs.preview;
      const layer = this.$refs.dropLayer;
      if (!el || !layer) return;
      const t = id != null ? this.local[id] : null;
      if (!t || !target) {
        this.previewKey = "";
        el.setAttribute("d", "");
        stopSlide(layer);
        return;
      }
      const key = id + "@" + target[0] + "," + target[1];
      if (key === this.previewKey) return;
      if (!this.previewKey.startsWith(id + "@")) {
        el.setAttribute("d", outlinePath(this.geo, t.cells, cellSetOf(t.cells)));
        this.previewFrom = [t.cells[0][0], t.cells[0][1]];
      }
      this.previewKey = key;
      const [x0, y0] = this.geo.center(this.previewFrom[0], this.previewFrom[1]);
      const [x1, y1] = this.geo.center(target[0], target[1]);
      slideTo(layer, (x1 - x0) * this.view.k, (y1 - y0) * this.view.k);
    },
    // ---- the move preview of a drag (sent once by the server at the drag's start; drawn here only) ----------
    setMovePreview(p) {
      const d = this.drag;
      if (!p || !d || d.mode !== "token" || String(p.creature) !== d.id || !d.el.hasAttribute("data-dragging")) return;
      this.movePreview = p;
      const reach = this.$refs.moveReach;
      const blocked = this.$refs.moveBlocked;
      const reachable = p.why_not ? [] : Object.keys(p.reachable || {}).filter((k) => k !== p.start);
      const noEnd = reachable.filter((k) => p.blocked && k in p.blocked);
      reach.setAttribute("d", cellsPath(this.geo, reachable.map(parseCell)));
      reach.setAttribute("data-count", String(reachable.length));
      blocked.setAttribute("d", cellsPath(this.geo, noEnd.map(parseCell)));
      blocked.setAttribute("data-count", String(noEnd.length));
      this.moveKey = "";
      if (d.target) this.showMoveAt(d.target, d.pointer || d.start);
    },
    // Only what a preview drew is cleared: setting an empty path again lays out and repaints its svg all the same
    // (the reach and blocked spaces lie in the board's), at every drop that had no preview.
    clearMovePreview() {
      this.movePreview = null;
      this.moveKey = "";
      for (const name of ["moveReach", "moveBlocked", "movePath"]) {
        const el = this.$refs[name];
        if (el) {
          if (el.getAttribute("d")) el.setAttribute("d", "");
          el.removeAttribute("data-count");
          el.removeAttribute("data-cells");
        }
      }
      const steps = this.$refs.moveSteps;
      if (steps && steps.firstChild) steps.replaceChildren();
      const label = this.$refs.moveLabel;
      if (label && label.style.display !== "none") {
        label.replaceChildren();
        label.style.display = "none";
      }
      if (label) stopSlide(label);
    },
    // The path to `target` (an anchor space), its step costs and the label beside the pointer `p` (screen px).
    showMoveAt(target, p) {
      const d = this.drag;
      if (d) d.pointer = p;
      const mp = this.movePreview;
      const label = this.$refs.moveLabel;
      if (!mp || !target || !label) return;
      slideTo(label, p.x + 18, p.y + 14);
      const k = cellKey(target[0], target[1]);
      if (k === this.moveKey) return;
      this.moveKey = k;
      const lines = this.moveLines(mp, k);
      label.replaceChildren(
        ...lines.map(([text, cls]) => {
          const div = document.createElement("div");
          div.textContent = text;
          if (cls) div.className = cls;
          return div;
        }),
      );
      label.style.display = lines.length ? "block" : "none";
      const cells = [];
      if (!mp.why_not && mp.reachable && k in mp.reachable && k !== mp.start) {
        for (let c = k; c !== mp.start && c != null && cells.length <= 10000; c = mp.paths[c]) cells.push(c);
        cells.reverse();
      }
      const pathEl = this.$refs.movePath;
      const steps = this.$refs.moveSteps;
      const points = [mp.start, ...cells].map((c) => this.geo.center(...parseCell(c)));
      pathEl.setAttribute("d", cells.length ? "M" + points.map(([x, y]) => fmt(x) + " " + fmt(y)).join("L") : "");
      pathEl.setAttribute("data-cells", cells.join(" "));
      const texts = [];
      let before = mp.start;
      for (const c of cells) {
        const [x, y] = this.geo.center(...parseCell(c));
        const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
        t.setAttribute("x", fmt(x));
        t.setAttribute("y", fmt(y));
        t.setAttribute("class", "vtt-move-step");
        t.setAttribute("text-anchor", "middle");
        t.setAttribute("dominant-baseline", "central");
        t.setAttribute("font-size", fmt(this.geo.cell * 0.55));
        t.setAttribute("data-step", c);
        t.textContent = String(mp.reachable[c] - mp.reachable[before]);
        texts.push(t);
        before = c;
      }
      steps.replaceChildren(...texts);
    },
    // The label's lines for a drag to space `k`: [text, class].
    moveLines(mp, k) {
      if (mp.why_not) return [["Cannot move: " + mp.why_not, "vtt-move-no"]];
      if (k === mp.start) return [];
      const left = mp.movement_left;
      if (!mp.reachable || !(k in mp.reachable)) return [["Out of reach: " + left + " Movement left", "vtt-move-no"]];
      const costs = [];
      for (let c = k; c !== mp.start && c != null && costs.length <= 10000; c = mp.paths[c]) {
        costs.push(mp.reachable[c] - mp.reachable[mp.paths[c]]);
      }
      costs.reverse();
      const total = mp.reachable[k];
      const sum = costs.length > 1 ? costs.join(" + ") + " = " : "";
      const lines = [["Movement " + sum + total + " of " + left + " left", "vtt-move-cost"]];
      if (mp.held) lines.push(["In a Hold: it must get free before it moves", "vtt-move-no"]);
      const col = mp.collisions && mp.collisions[k];
      if (col) {
        for (const t of col.targets || []) {
          lines.push(["Collide with " + t.name + ": " + percent(t.chance), "vtt-move-odds"]);
          if (col.charge && t.charge_chance != null) {
            lines.push(["Charge into " + t.name + ": " + percent(t.charge_chance), "vtt-move-odds"]);
          }
        }
        lines.push(col.move_in ? ["or move in beside them", ""] : ["No room to move in", "vtt-move-no"]);
      } else if (mp.blocked && k in mp.blocked) {
        lines.push(["Cannot end here: " + mp.blocked[k], "vtt-move-no"]);
      }
      return lines;
    },
    clickToken(id) {
      const t = this.local[id];
      if (!t) return;
      const [cx, cy] = this.tokenCenter(t);
      const x = fmt(this.view.x + cx * this.view.k);
      const y = fmt(this.view.y + cy * this.view.k);
      const anchor = this.$refs.anchor;
      if (anchor) {
        anchor.style.left = x + "px";
        anchor.style.top = y + "px";
      }
      // x, y: the token's centre in the component's own pixels, for a menu placed outside the component; w, h: the
      // size of its body on screen, for a menu beside it
      const body = this.$el.querySelector(`[data-token-id="${CSS.escape(String(id))}"] .vtt-body`);
      const box = body ? body.getBoundingClientRect() : null;
      const w = box ? Number(fmt(box.width)) : 1;
      const h = box ? Number(fmt(box.height)) : 1;
      if (box && box.width > 0) {
        // the body as drawn (name plates and badges may shift it off the footprint's centre)
        const own = this.$el.getBoundingClientRect();
        const bx = fmt(box.left + box.width / 2 - own.left);
        const by = fmt(box.top + box.height / 2 - own.top);
        this.$emit("token_click", { id, x: Number(bx), y: Number(by), w, h });
        return;
      }
      this.$emit("token_click", { id, x: Number(x), y: Number(y), w, h });
    },
  },
  template: `
    <div class="vtt-map">
      <svg ref="boardSvg" class="vtt-board-svg">
        <defs>
          <radialGradient :id="'vtt-parch-' + uid" cx="50%" cy="45%" r="75%">
            <stop offset="0%" stop-color="#f5ecd3"/>
            <stop offset="70%" stop-color="#eadbb6"/>
            <stop offset="100%" stop-color="#d9c595"/>
          </radialGradient>
          <pattern :id="'vtt-hatch-' + uid" patternUnits="userSpaceOnUse" :width="geo.cell * 0.3"
                   :height="geo.cell * 0.3" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" :y2="geo.cell * 0.3" stroke="#62584d" :stroke-width="geo.cell * 0.07"/>
          </pattern>
          <pattern :id="'vtt-waves-' + uid" patternUnits="userSpaceOnUse" :width="geo.cell * 0.8"
                   :height="geo.cell * 0.4">
            <path :d="wavePath" fill="none" stroke="rgba(225, 240, 255, 0.75)" :stroke-width="geo.cell * 0.05"/>
          </pattern>
          <pattern :id="'vtt-dots-' + uid" patternUnits="userSpaceOnUse" :width="geo.cell * 0.32"
                   :height="geo.cell * 0.32">
            <circle :cx="geo.cell * 0.08" :cy="geo.cell * 0.08" :r="geo.cell * 0.045" fill="#6b4a1f"
                    fill-opacity="0.6"/>
            <circle :cx="geo.cell * 0.24" :cy="geo.cell * 0.24" :r="geo.cell * 0.03" fill="#6b4a1f"
                    fill-opacity="0.45"/>
          </pattern>
          <pattern :id="'vtt-zig-' + uid" patternUnits="userSpaceOnUse" :width="geo.cell * 0.5"
                   :height="geo.cell * 0.5">
            <path :d="zigPath" fill="none" stroke="#a35f0c" stroke-opacity="0.7" :stroke-width="geo.cell * 0.05"/>
          </pattern>
          <filter :id="'vtt-glow-' + uid" x="-50%" y="-50%" width="200%" height="200%">
            <feGaussianBlur stdDeviation="3" result="blur"/>
            <feMerge><feMergeNode in="blur"/><feMergeNode in="SourceGraphic"/></feMerge>
          </filter>
        </defs>
        <g ref="boardWorld">
          <vtt-board :geo="geo" :cols="bd.cols" :rows="bd.rows" :walls="bd.walls" :objects="bd.objects"
                     :water="bd.water" :uneven="bd.uneven" :conductive="bd.conductive" :bg="bg" :uid="uid"
                     :tile-clip="tileClip"/>
          <g v-if="fogView && !fogView.preview" class="vtt-fog" data-role="fog" :data-visible="fogView.visible"
             :data-remembered="fogView.remembered" data-preview="0">
            <path :d="fogView.dim" class="vtt-fog-dim"/>
            <path :d="fogView.dark" class="vtt-fog-dark"/>
          </g>
          <vtt-highlights :geo="geo" :items="hl"/>
          <path ref="moveReach" class="vtt-move-reach" data-role="move-reach" d=""/>
          <path ref="moveBlocked" class="vtt-move-blocked" data-role="move-blocked" d=""/>
        </g>
      </svg>
      <svg ref="svg" class="vtt-svg" :data-grid="geo.grid" :data-cell="geo.cell" :data-cols="bd.cols"
           :data-rows="bd.rows" :data-mode="editMode"
           @pointerdown="onDown" @pointermove="onMove" @pointerup="onUp" @pointercancel="onPointerCancel"
           @wheel.prevent="onWheel" @contextmenu="onContextMenu">
        <g ref="world" data-role="world">
          <g ref="firstTokens" class="vtt-first-tokens"></g>
          <g class="vtt-tokens">
            <vtt-token v-for="id in built" :key="id" :t="local[id]" :geo="geo" :active="id === activeId" :uid="uid"
                       :stack="stacks[id] || ''"/>
          </g>
          <g v-if="fogView && fogView.preview" class="vtt-fog" data-role="fog" :data-visible="fogView.visible"
             :data-remembered="fogView.remembered" data-preview="1">
            <path :d="fogView.dim" class="vtt-fog-dim"/>
            <path :d="fogView.dark" class="vtt-fog-dark"/>
          </g>
          <vtt-highlights :geo="geo" :items="hl" over/>
          <path ref="stroke" class="vtt-stroke-preview" d=""/>
          <g ref="pings" data-role="pings"></g>
          <g ref="rulers" data-role="rulers"></g>
        </g>
      </svg>
      <div ref="dropLayer" class="vtt-drag-layer" data-role="drop-preview">
        <svg class="vtt-drag-svg"><g ref="dropWorld"><path ref="preview" class="vtt-drop-preview" d=""/></g></svg>
      </div>
      <div ref="dragMarks" class="vtt-drag-layer vtt-drag-marks">
        <svg class="vtt-drag-svg">
          <g ref="marksWorld">
            <path ref="movePath" class="vtt-move-path" data-role="move-path" d=""/>
            <g ref="moveSteps" class="vtt-move-steps" data-role="move-steps"></g>
          </g>
        </svg>
      </div>
      <div ref="dragGhost" class="vtt-drag-layer" data-role="drag-ghost">
        <svg ref="ghostSvg" class="vtt-drag-svg vtt-drag-ghost"><g ref="ghostWorld"></g></svg>
      </div>
      <div v-if="tools" class="vtt-tools" @pointerdown.stop>
        <button ref="rulerButton" type="button" class="vtt-tool" data-role="ruler-toggle" aria-pressed="false"
                title="Ruler (R): press and drag on the map to measure" @click="toggleRuler">Ruler</button>
        <button ref="keysButton" type="button" class="vtt-tool" data-role="keys-toggle" aria-label="Keys"
                aria-expanded="false" title="Keys" @click="showKeys()">?</button>
        <div ref="keysHelp" class="vtt-keys" data-role="keys-help">
          <b>R</b><span>ruler on or off; press and drag to measure</span>
          <b>Alt-click</b><span>ping a space (on touch: a long press)</span>
          <b>E</b><span>end the turn, on your turn</span>
          <b>Arrow keys</b><span>move the map</span>
          <b>+ and −</b><span>zoom in and out</span>
          <b>Ctrl+Z</b><span>undo (the Soulweaver)</span>
          <b>Ctrl+Shift+Z</b><span>redo (the Soulweaver)</span>
          <b>Escape</b><span>cancel</span>
        </div>
      </div>
      <div ref="moveLabel" class="vtt-move-label" data-role="move-label"></div>
      <div ref="anchor" class="vtt-anchor"><slot></slot></div>
    </div>`,
};
