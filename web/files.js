// @ts-check
/**
 * Map and scenario files in the lab. The files themselves (.map, .scen,
 * .json, .txt) are read by the Python core in the worker (`load_map`,
 * `load_scen`, with the core's validation); this module turns its answers
 * into the page's map, and judges a path length against a benchmark's.
 *
 * @module files
 */

/** Files larger than this are refused before they are read (a 4096 x 4096 .map is about 17 MB). */
export const MAX_FILE_BYTES = 40 * 1024 * 1024;

/**
 * Whether a length matches a Moving AI optimal length, which the files print
 * with 2 to 8 decimals (compared as the benchmark README advises).
 * @param {number | null} length  null: no path was found
 * @param {number} optimal
 * @returns {{ok: boolean, text: string}}  text like "length 61.33 (optimal 61.33 ✓)"
 */
export function benchVerdict(length, optimal) {
  if (length === null) return { ok: false, text: `no path (optimal ${optimal.toFixed(2)} \u2717)` };
  const tol = Math.max(1e-4 * optimal, 0.005);
  const diff = length - optimal;
  if (Math.abs(diff) <= tol) return { ok: true, text: `length ${length.toFixed(2)} (optimal ${optimal.toFixed(2)} \u2713)` };
  const pct = optimal > 0 ? ` ${((100 * diff) / optimal).toFixed(1)}%` : '';
  return {
    ok: false,
    text: `length ${length.toFixed(2)} (optimal ${optimal.toFixed(2)} \u2717 ${diff > 0 ? '+' : ''}${diff.toFixed(2)},${pct} ${diff > 0 ? 'longer' : 'shorter'})`,
  };
}

/**
 * The page's map from the worker's `load_map` answer.
 * @param {any} resp  {width, height, cells: Uint8Array, start, goal, terrains}
 * @param {string} text  the file's text
 * @param {string} name  the file's name
 * @param {(code: number) => unknown} knows  whether the lab knows a terrain code
 * @param {Array<number | null>} currentCosts  the costs in use (a JSON map may override them)
 * @returns {{width: number, height: number, cells: Uint8Array, start: [number, number] | null,
 *            goal: [number, number] | null, costs: Array<number | null> | undefined}}
 */
export function mapFromAnswer(resp, text, name, knows, currentCosts) {
  const { width, height, cells } = resp;
  if (!Number.isInteger(width) || !Number.isInteger(height) || !(cells instanceof Uint8Array) || cells.length !== width * height) {
    throw new Error('the engine read the map but sent back no tiles');
  }
  /** @type {Array<number | null> | undefined} */
  let costs;
  const types = Array.isArray(resp.terrains) ? resp.terrains : [];
  for (const t of types) {
    if (!knows(t.code)) throw new Error(`it uses the terrain "${t.name}" (code ${t.code}), which the lab does not know`);
  }
  if (text.trimStart().startsWith('{') && types.length) {
    // An arcstar JSON map brings its own costs.
    costs = [...currentCosts];
    for (const t of types) costs[t.code] = t.cost;
  }
  /** @type {[number, number] | null} */
  const start = Array.isArray(resp.start) ? [resp.start[0], resp.start[1]] : null;
  /** @type {[number, number] | null} */
  let goal = Array.isArray(resp.goal) ? [resp.goal[0], resp.goal[1]] : null;
  if (!goal && !/\.(map|json)$/i.test(name)) goal = labGoal(text);
  if (goal && start && goal[0] === start[0] && goal[1] === start[1]) goal = null;
  return { width, height, cells, start, goal, costs };
}

/**
 * The lab's ASCII format marks the goal "G", while the core's reader takes
 * "G" as Moving AI ground and "E" as the goal: the goal of a lab map, if its
 * text holds exactly one G (rows as the core counts them: blank lines skipped).
 * @param {string} text
 * @returns {[number, number] | null}
 */
export function labGoal(text) {
  const rows = text
    .replace(/\r/g, '')
    .replace(/^\n+|\n+$/g, '')
    .split('\n')
    .filter((r) => r.trim() !== '');
  /** @type {[number, number] | null} */
  let found = null;
  for (let y = 0; y < rows.length; y++) {
    for (let x = rows[y].indexOf('G'); x >= 0; x = rows[y].indexOf('G', x + 1)) {
      if (found) return null;
      found = [x, y];
    }
  }
  return found;
}
