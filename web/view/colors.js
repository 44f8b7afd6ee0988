// @ts-check
/**
 * The lab's one palette: the canvas draws with it, and style.css's legend and swatches read it
 * through CSS variables set from `cssVariables()`, so no colour is written twice. Terrain colours
 * are by the core's terrain names, so a terrain table from the core draws without a second list
 * of codes. The pairs a person must tell apart (water and the closed list, swamp and the open
 * list, start and goal, ...) are checked to stay distinct for protanopes and deuteranopes
 * (tests/js/palette.test.mjs, CIEDE2000 on Machado 2009 simulations).
 *
 * @module view/colors
 */

export const COLORS = Object.freeze({
  background: '#0b0e12',
  mapEdge: '#2a3441',
  /** by terrain name */
  terrain: /** @type {Readonly<Record<string, readonly number[]>>} */ ({
    ground: [32, 38, 46],
    wall: [104, 116, 134],
    road: [150, 128, 96],
    sand: [176, 158, 98],
    swamp: [74, 84, 40],
    hills: [122, 78, 58],
    water: [20, 52, 100],
  }),
  unknownTerrain: [200, 60, 200],
  closed: [90, 150, 255, 150], // closed list (expanded), blue like Lester's figures, lighter than water
  openList: [90, 220, 120, 150], // open list (frontier), green, brighter than swamp
  closedEdge: '#8fd3ff', // Lester: closed tiles outlined light blue
  openEdge: '#8dff9e', // Lester: open tiles outlined light green
  current: '#ffd166', // the tile expanded last
  pointer: '#aab3bf', // Lester's grey pointer to the parent
  score: '#f2f5f8',
  scoreShadow: 'rgba(8,10,14,0.9)',
  grid: 'rgba(255,255,255,0.07)',
  path: '#ffb347',
  start: '#3ddc84',
  goal: '#ff4f9a', // rose, not red: tells apart from the green start in red-green colour blindness
  unit: '#f5f7fa',
  unitEdge: '#0f1318',
  hover: 'rgba(255,255,255,0.55)',
  blocked: 'rgba(255, 45, 45, 0.55)',
  casing: 'rgba(8, 10, 14, 0.55)',
});

/** The colours of Pinter's Figure 1, one per plan of a comparison. */
export const COMPARE_COLORS = Object.freeze({ raw: '#c9d1d9', smooth: '#4cc9f0', ignore: '#f72585', chosen: '#ffb347', directional: '#b794f6' });

/**
 * Compare mode's methods, in the order chosen: Okabe and Ito's colour-blind-safe orange, sky
 * blue, bluish green and reddish purple (their yellow is too near the orange for deuteranopes:
 * tests/js/palette.test.mjs checks the four apart).
 */
export const METHOD_COLORS = Object.freeze(['#e69f00', '#56b4e9', '#009e73', '#cc79a7']);

/**
 * The hybrid's stages: its 4-neighbour A* path, the two Smoothing48 passes and where each gave
 * up, and the Directional-8 patch between them.
 */
export const STAGE_COLORS = Object.freeze({ astar: '#c9d1d9', forward: '#4cc9f0', backward: '#b794f6', failed: '#ff2d2d', patch: '#c6f432' });

/**
 * A terrain's colour as [r, g, b].
 * @param {string} name  the core's terrain name
 */
export function terrainRgb(name) {
  return COLORS.terrain[name] || COLORS.unknownTerrain;
}

/**
 * A terrain's colour as CSS.
 * @param {string} name  the core's terrain name
 */
export function terrainCss(name) {
  const c = terrainRgb(name);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/**
 * Pack a colour for a Uint32 view of ImageData (little-endian RGBA).
 * @param {readonly number[]} c  [r, g, b] or [r, g, b, a]
 */
export function rgba(c) {
  const a = c.length > 3 ? c[3] : 255;
  return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
}

/**
 * A colour as CSS: [r, g, b] or [r, g, b, a] (a 0..255), or CSS text as it is.
 * @param {readonly number[] | string} c
 */
export function css(c) {
  if (typeof c === 'string') return c;
  return c.length > 3 ? `rgba(${c[0]}, ${c[1]}, ${c[2]}, ${(c[3] / 255).toFixed(3)})` : `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/**
 * The palette as CSS custom properties (--c-closed, --c-terrain-water, ...) for style.css.
 * @returns {Record<string, string>}
 */
export function cssVariables() {
  /** @type {Record<string, string>} */
  const vars = {};
  for (const [name, c] of Object.entries(COLORS)) {
    if (name === 'terrain') continue;
    vars[`--c-${name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`] = css(/** @type {readonly number[] | string} */ (c));
  }
  for (const [name, c] of Object.entries(COLORS.terrain)) vars[`--c-terrain-${name}`] = css(c);
  for (const [name, c] of Object.entries(COMPARE_COLORS)) vars[`--c-compare-${name}`] = c;
  for (const [name, c] of Object.entries(STAGE_COLORS)) vars[`--c-stage-${name}`] = c;
  return vars;
}
