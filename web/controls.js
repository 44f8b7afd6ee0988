// @ts-check
/**
 * The search settings of the lab: their names in the menus and the checks on
 * the numbers a person types (a terrain cost, a weight, a turn penalty, a
 * budget). What settings guarantee comes from the core (`describe`). The lists of choices themselves come from
 * the engine's `info` answer; the labels here only make known names readable. Everything here is
 * pure: the settings as typed live in the app state (app.js).
 *
 * @module controls
 */

/**
 * The options sent with a plan (see arcstar.planner.PlanOptions).
 * @typedef {Object} SearchOptions
 * @property {string} method
 * @property {number} neighbours  4 or 8
 * @property {string} diagonal
 * @property {string} costs       'lester' (10/14) or 'octile' (1/sqrt 2)
 * @property {string} heuristic
 * @property {number} weight
 * @property {string} open_list
 * @property {number} turn_penalty
 * @property {string} stop
 * @property {number | null} max_expansions
 * @property {boolean} trace
 */

/** @type {SearchOptions} */
export const DEFAULT_OPTIONS = Object.freeze({
  method: 'astar',
  neighbours: 8,
  diagonal: 'both',
  costs: 'lester',
  heuristic: 'octile',
  weight: 1,
  open_list: 'heap',
  turn_penalty: 0,
  stop: 'closed',
  max_expansions: null,
  trace: true,
});

/** Lester's settings: A*, 10/14, Manhattan x 10, no corner cutting, stop when the goal closes. */
export const LESTER_OPTIONS = Object.freeze({
  method: 'astar',
  neighbours: 8,
  diagonal: 'both',
  costs: 'lester',
  heuristic: 'manhattan',
  weight: 1,
  open_list: 'heap',
  turn_penalty: 0,
  stop: 'closed',
});

/** The Moving AI benchmark metric: 8 neighbours, no corner cutting, 1 / sqrt 2, octile. */
export const BENCHMARK_OPTIONS = Object.freeze({
  neighbours: 8,
  diagonal: 'both',
  costs: 'octile',
  heuristic: 'octile',
  weight: 1,
  turn_penalty: 0,
  stop: 'closed',
});

/**
 * The choices offered until the engine's `info` answer replaces them (the
 * page is usable while the engine loads); they mirror the core's lists.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const PROVISIONAL_CHOICES = Object.freeze({
  method: ['astar', 'dijkstra'],
  diagonal: ['never', 'both', 'either', 'always'],
  costs: ['lester', 'octile'],
  heuristic: ['manhattan', 'octile', 'euclidean', 'chebyshev', 'none'],
  open_list: ['heap', 'unsorted'],
  stop: ['closed', 'reached'],
});

/** Readable names for the values the engine lists; unknown values show as they are. */
export const LABELS = Object.freeze({
  method: /** @type {Record<string, string>} */ ({
    astar: 'A*',
    dijkstra: 'Dijkstra',
    jps: 'Jump Point Search',
    jpsplus: 'JPS+',
    hpa: 'HPA* (hierarchical)',
  }),
  diagonal: /** @type {Record<string, string>} */ ({
    never: 'never (straight moves only)',
    both: 'no corner cutting',
    either: 'cut one corner',
    always: 'always (cut corners)',
  }),
  costs: /** @type {Record<string, string>} */ ({ lester: '10 / 14 (Lester)', octile: '1 / \u221A2' }),
  heuristic: /** @type {Record<string, string>} */ ({
    manhattan: 'Manhattan (Lester)',
    octile: 'octile',
    euclidean: 'Euclidean',
    chebyshev: 'Chebyshev',
    none: 'none (H = 0)',
  }),
  open_list: /** @type {Record<string, string>} */ ({ heap: 'binary heap', unsorted: 'unsorted (Pinter)' }),
  stop: /** @type {Record<string, string>} */ ({ closed: 'goal is closed', reached: 'goal is first reached' }),
});

/**
 * A label for a value of a setting.
 * @param {keyof typeof LABELS} setting
 * @param {string} value
 */
export function label(setting, value) {
  return LABELS[setting][value] || value;
}

/**
 * A number as a person types it: decimal digits with an optional sign, point (or comma) and
 * exponent; anything else (letters, "0x10", "Infinity", empty) is NaN, never 0 or a guess.
 * @param {string} raw
 */
export function decimal(raw) {
  const text = String(raw).trim().replace(',', '.');
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : NaN;
}

/**
 * Read a terrain cost as typed: a positive number, or "∞" / "inf" for
 * impassable. Throws an Error with a readable message otherwise.
 * @param {string} raw
 * @param {string} name  the terrain's name
 * @returns {number | null}  null: impassable
 */
export function parseCost(raw, name) {
  const text = String(raw).trim();
  if (text === '') throw new Error(`Cost of ${name} is empty: give a positive number, or \u221E for impassable.`);
  if (/^(\u221E|inf|infinity|impassable)$/i.test(text)) return null;
  const v = decimal(text);
  if (Number.isNaN(v)) {
    throw new Error(`Cost of ${name}: "${text}" is not a number. Give a positive number, or \u221E for impassable.`);
  }
  if (v < 0) throw new Error(`Cost of ${name} cannot be negative (${text}): give a positive number, or \u221E for impassable.`);
  if (v === 0) throw new Error(`Cost of ${name} cannot be 0 (moves would be free and the heuristic meaningless): give a positive number.`);
  if (!Number.isFinite(v) || v > 1e6) throw new Error(`Cost of ${name} is too large (${text}): at most 1000000, or \u221E for impassable.`);
  return v;
}

/**
 * A cost as shown in its input.
 * @param {number | null | undefined} cost
 */
export function showCost(cost) {
  return cost === null || cost === undefined ? '\u221E' : String(cost);
}

/**
 * Read the numeric settings as typed. Returns the values and, per field, a
 * readable error for the ones that cannot be sent.
 * @param {{weight: string, turn_penalty: string, max_expansions: string}} raw
 * @returns {{values: {weight?: number, turn_penalty?: number, max_expansions?: number | null}, errors: Record<string, string>}}
 */
export function parseNumbers(raw) {
  /** @type {Record<string, string>} */
  const errors = {};
  /** @type {{weight?: number, turn_penalty?: number, max_expansions?: number | null}} */
  const values = {};
  const num = decimal;

  const w = num(raw.weight);
  if (String(raw.weight).trim() === '') errors.weight = 'Weight is empty: 1 is plain A*, above 1 is weighted A*.';
  else if (!Number.isFinite(w)) errors.weight = `Weight "${raw.weight}" is not a number.`;
  else if (w < 0) errors.weight = `Weight cannot be negative (${w}).`;
  else if (w > 100) errors.weight = `Weight ${w} is absurd: at most 100.`;
  else values.weight = w;

  const t = num(raw.turn_penalty);
  if (String(raw.turn_penalty).trim() === '') values.turn_penalty = 0;
  else if (!Number.isFinite(t)) errors.turn_penalty = `Turn cost "${raw.turn_penalty}" is not a number.`;
  else if (t < 0) errors.turn_penalty = `Turn cost cannot be negative (${t}).`;
  else values.turn_penalty = t;

  const b = String(raw.max_expansions).trim();
  if (b === '') values.max_expansions = null;
  else {
    const v = decimal(b);
    if (!Number.isFinite(v)) errors.max_expansions = `Budget "${b}" is not a number: give a whole number of expansions, or leave it empty for no limit.`;
    else if (v === 0) errors.max_expansions = 'A budget of 0 expansions cannot find anything: give at least 1, or leave it empty for no limit.';
    else if (v < 0) errors.max_expansions = `Budget cannot be negative (${v}).`;
    else if (!Number.isInteger(v)) errors.max_expansions = `Budget must be a whole number of expansions (got ${v}).`;
    else if (v > 1e9) errors.max_expansions = `Budget ${v} is absurd: at most 1000000000, or leave it empty for no limit.`;
    else values.max_expansions = v;
  }
  return { values, errors };
}

/** What the unit does when the map is edited under its path, with the labels of the choice. */
export const ON_EDIT_CHOICES = Object.freeze([
  ['stop', 'stop'],
  ['replan', 're-plan from where it is'],
]);

/** The turning methods offered (null: the tile path only), with their labels. */
export const TURNING_CHOICES = Object.freeze([
  ['', 'none (tile path)'],
  ['smooth', 'smooth (corners)'],
  ['ignore', 'turns, ignoring walls'],
  ['recalculate', 'turns, recalculate'],
  ['tighter', 'turns, tighter (slow down)'],
  ['backup', 'turns, back up (3-point)'],
]);

/** The turning methods whose paths never cross a wall when they are found. */
export const LEGAL_TURNING = Object.freeze(['recalculate', 'tighter', 'backup']);

/**
 * The unit's settings as sent with a plan (see PlanOptions: turning, radius, width, can_reverse, art).
 * @typedef {Object} UnitOptions
 * @property {string | null} turning
 * @property {number} radius
 * @property {number | null} width
 * @property {boolean} can_reverse
 * @property {number | null} art
 */

/**
 * Read the unit's settings as typed. An empty width means a point for a tile
 * path and 1 tile with turning (the core's default).
 * @param {{turning: string, radius: string, width: string, can_reverse: boolean, art: string}} raw
 * @returns {{values: UnitOptions, errors: Record<string, string>}}
 */
export function parseUnit(raw) {
  /** @type {Record<string, string>} */
  const errors = {};
  const turning = raw.turning ? String(raw.turning) : null;
  const positive = (/** @type {string} */ text, /** @type {string} */ name, /** @type {string} */ key, /** @type {number} */ max) => {
    const s = String(text).trim();
    const v = decimal(s);
    if (s === '') errors[key] = `${name} is empty: give a positive number of tiles.`;
    else if (!Number.isFinite(v)) errors[key] = `${name} "${s}" is not a number: give a positive number of tiles.`;
    else if (v < 0) errors[key] = `${name} cannot be negative (${v}): give a positive number of tiles.`;
    else if (v === 0) errors[key] = `${name} cannot be 0: give a positive number of tiles.`;
    else if (v > max) errors[key] = `${name} ${v} is too large: at most ${max} tiles.`;
    else return v;
    return NaN;
  };
  const radius = positive(raw.radius, 'Turning radius', 'radius', 100);
  const width = String(raw.width).trim() === '' ? null : positive(raw.width, 'Width', 'width', 100);
  const art = raw.art === '8' || raw.art === '16' ? Number(raw.art) : null;
  if (art !== null && !turning) errors.art = `Art directions (${art}) redraw a curved path: choose a turning method too.`;
  return { values: { turning, radius, width, can_reverse: !!raw.can_reverse, art }, errors };
}

/** @typedef {import('./app.js').SearchInput} SearchInput */
/** @typedef {import('./app.js').UnitInput} UnitInput */

/** The names of the number settings, for their errors. */
const NUMBER_NAMES = Object.freeze({ weight: 'Weight', turn_penalty: 'Turn cost', max_expansions: 'Budget' });

/** The search settings as typed when the page opens. @returns {SearchInput} */
export function defaultSearchInput() {
  const d = DEFAULT_OPTIONS;
  return {
    method: d.method,
    neighbours: String(d.neighbours),
    diagonal: d.diagonal,
    costs: d.costs,
    heuristic: d.heuristic,
    weight: String(d.weight),
    open_list: d.open_list,
    turn_penalty: String(d.turn_penalty),
    stop: d.stop,
    max_expansions: '',
    trace: d.trace,
    unreadable: [],
  };
}

/** The unit's settings as typed when the page opens (a tile path, no body). @returns {UnitInput} */
export function defaultUnitInput() {
  return { turning: '', radius: '1.5', width: '', art: '', can_reverse: false, on_edit: 'stop', start_heading: '', goal_heading: '', people: false };
}

/**
 * The search settings as they would be sent, with the errors of the ones that cannot be.
 * @param {SearchInput} input
 * @returns {{options: SearchOptions, errors: Record<string, string>}}
 */
export function readOptions(input) {
  const { values, errors } = parseNumbers(input);
  for (const k of input.unreadable) errors[k] = `${NUMBER_NAMES[/** @type {keyof typeof NUMBER_NAMES} */ (k)]} is not a number.`;
  const options = {
    method: input.method,
    neighbours: Number(input.neighbours),
    diagonal: input.diagonal,
    costs: input.costs,
    heuristic: input.heuristic,
    weight: values.weight ?? DEFAULT_OPTIONS.weight,
    open_list: input.open_list,
    turn_penalty: values.turn_penalty ?? 0,
    stop: input.stop,
    max_expansions: values.max_expansions ?? null,
    trace: input.trace,
  };
  return { options, errors };
}

/**
 * The plan options for the unit with a turning method (null: the tile path).
 * @param {UnitOptions} u
 * @param {string | null} turning
 * @returns {{width?: number, turning?: string, radius?: number, can_reverse?: boolean, art?: number}}
 */
export function unitOptions(u, turning) {
  /** @type {{width?: number, turning?: string, radius?: number, can_reverse?: boolean, art?: number}} */
  const o = {};
  if (u.width !== null) o.width = u.width;
  if (turning) {
    o.turning = turning;
    o.radius = u.radius;
    o.can_reverse = u.can_reverse;
    if (u.art !== null) o.art = u.art;
  }
  return o;
}

/**
 * How a search's scores are written in Lester's view: whole numbers for his 10/14 costs.
 * @param {string} costs  the cost model of the search
 * @returns {(v: number) => string}
 */
export function scoreFormat(costs) {
  if (costs === 'lester') return (v) => (Math.abs(v - Math.round(v)) < 1e-6 ? String(Math.round(v)) : v.toFixed(1));
  return (v) => v.toFixed(1);
}
