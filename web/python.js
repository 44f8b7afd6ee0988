// @ts-check
/**
 * The Python panel's commands (no DOM: panels/python.js shows them). The user writes
 * `heuristic(x, y, gx, gy)` and/or `cost(x, y, terrain)`; Run has the core compile it and call
 * each function once (`check_code`), and from then on every Find path sends that text with the
 * plan (the worker holds nothing: a restarted worker gets it again with the next search). Off
 * stops sending it. Errors come back as the core's `code_error` (function, line, reason), read
 * as fields, never from the message.
 *
 * Code that came with a share link or a work file is shown but never run until this user
 * presses Run (`pending`). This is the user's own code in their own tab: no sandbox is claimed.
 * An endless loop cannot be interrupted inside the worker; the engine's watchdog restarts it after
 * its silence limit, and Python is then turned Off so the next search does not hang again.
 *
 * @module python
 */

import { EngineStoppedError, checkCodeRequest } from './engine.js';
import { messageOf } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./protocol.js').CodeError} CodeError */

/** The longest code the core compiles (its usercode.MAX_CODE_CHARS). */
export const MAX_CODE_CHARS = 65_536;

/** What the panel holds when nobody has written anything yet. */
export const EXAMPLE_CODE = `# heuristic(x, y, gx, gy): the estimate from tile (x, y) to the goal (gx, gy),
# in the path's cost units (Lester's costs: 10 a straight step, 14 a diagonal).
def heuristic(x, y, gx, gy):
    dx, dy = abs(x - gx), abs(y - gy)
    return 10 * max(dx, dy) + 4 * min(dx, dy)   # octile: never overestimates


# cost(x, y, terrain): what entering tile (x, y) costs, times the step
# (terrain is its name: "ground", "road", "sand", ...); None = impassable.
# Walls stay walls. Remove the # signs to use it.
# def cost(x, y, terrain):
#     if terrain == "sand":
#         return None              # keep off the sand
#     return 1.0
`;

/**
 * The panel's state, kept in AppState and in the work snapshot (io/work.js).
 * @typedef {Object} PythonState
 * @property {string} code  the text in the panel
 * @property {string | null} ran  the code the searches send (set by Run; null: Python is Off)
 * @property {'' | 'link' | 'file'} pending  the code came with a link or a file and this user has not run it
 * @property {{text: string, codeError: CodeError | null} | null} error  the last error, for people and its line
 * @property {string[]} functions  the functions the code as run defines
 * @property {string} note  what the last search said about the code ('' none)
 * @property {boolean} busy  a Run is waiting for the engine
 */

/** @returns {PythonState} */
export function defaultPython() {
  return { code: EXAMPLE_CODE, ran: null, pending: '', error: null, functions: [], note: '', busy: false };
}

/**
 * What the snapshot keeps: the code, the code run (null: Off) and its functions, and whether it
 * awaits a first Run.
 * @typedef {{code: string, ran: string | null, functions: string[], pending: '' | 'link' | 'file'}} PythonWork
 */

/**
 * The panel's part of the work snapshot.
 * @param {PythonState} py
 * @returns {PythonWork}
 */
export function pythonWork(py) {
  return { code: py.code, ran: py.ran, functions: [...py.functions], pending: py.pending };
}

/**
 * A snapshot's Python part, checked (older snapshots have none: the example, Off).
 * @param {unknown} d
 * @returns {PythonWork}
 */
export function readPythonWork(d) {
  if (d === undefined || d === null) return { code: EXAMPLE_CODE, ran: null, functions: [], pending: '' };
  const p = /** @type {Record<string, unknown>} */ (d);
  const text = (/** @type {unknown} */ v) => typeof v === 'string' && v.length <= MAX_CODE_CHARS;
  if (typeof d !== 'object' || Array.isArray(d) || !text(p.code) || !(p.ran === null || text(p.ran))
      || !['', 'link', 'file'].includes(/** @type {string} */ (p.pending))
      || !Array.isArray(p.functions) || p.functions.length > 2 || !p.functions.every((f) => f === 'heuristic' || f === 'cost')) {
    throw new Error('the Python code is malformed');
  }
  return {
    code: /** @type {string} */ (p.code),
    ran: /** @type {string | null} */ (p.ran),
    functions: /** @type {string[]} */ (p.functions),
    pending: /** @type {'' | 'link' | 'file'} */ (p.pending),
  };
}

/**
 * Code that arrived from elsewhere (a link, a file): shown, Off, and waiting for this user's Run.
 * @param {PythonWork} w
 * @param {'link' | 'file'} from
 * @returns {PythonWork}
 */
export function untrusted(w, from) {
  return { code: w.code, ran: null, functions: [], pending: w.code === EXAMPLE_CODE ? '' : from };
}

/**
 * What to add where a link or a file was opened: that it carries code not run ('' when not).
 * @param {AppState} app
 */
export function pendingNote(app) {
  return app.python.pending ? ' It carries Python code: read it in the Python panel; it runs only when you press Run there.' : '';
}

/**
 * Show a snapshot's Python part (keeping nothing of the code before).
 * @param {AppState} app
 * @param {PythonWork} w
 */
export function showPythonWork(app, w) {
  Object.assign(app.python, { code: w.code, ran: w.ran, pending: w.pending, functions: [...w.functions], error: null, note: '' });
}

/**
 * The text typed into the panel.
 * @param {AppState} app
 * @param {string} code
 */
export function editCode(app, code) {
  app.python.code = code;
  app.emit('options');
}

/**
 * Put an error from the engine in the panel (a code_error names its line).
 * @param {AppState} app
 * @param {unknown} e
 */
export function showCodeError(app, e) {
  const codeError = e && typeof e === 'object' && 'codeError' in e ? /** @type {CodeError | null} */ (e.codeError) : null;
  app.python.error = { text: messageOf(e), codeError };
  app.emit('options');
}

/**
 * The engine died while it ran the user's code (the watchdog's restart, or a crash): Python is
 * turned Off so the next search does not hang again; the map and the code stay.
 * @param {AppState} app
 * @param {unknown} e
 */
function stoppedInCode(app, e) {
  const py = app.python;
  py.ran = null;
  py.error = {
    text: `The engine stopped while your Python ran (${messageOf(e)}): an endless loop? A new engine was started; your map, settings and code are kept, and Python is now Off. Fix the code and press Run.`,
    codeError: null,
  };
  app.emit('options');
}

/**
 * Run: the core compiles the panel's code and calls each function once; then the next searches use it.
 * A failed Run leaves the searches as they were and shows the error with its line.
 * @param {AppState} app
 * @param {Engine} engine
 */
export async function runCode(app, engine) {
  const py = app.python;
  if (py.busy) return;
  if (app.engineState !== 'ready') {
    py.error = { text: 'The engine is still loading: press Run again in a moment.', codeError: null };
    app.emit('options');
    return;
  }
  const code = py.code;
  py.busy = true;
  app.emit('options', 'controls');
  try {
    const answer = /** @type {import('./protocol.js').CodeCheckedMessage} */ (await engine.request(checkCodeRequest(code)));
    py.ran = code;
    py.pending = '';
    py.error = null;
    py.functions = [...answer.functions];
    py.note = '';
    const fns = answer.functions.map((f) => `${f}()`).join(' and ');
    app.setStatus(app.status.state === 'error' ? 'ready' : app.status.state, `Python on: ${fns} will be used by Find path.`);
  } catch (e) {
    if (e instanceof EngineStoppedError) stoppedInCode(app, e);
    else showCodeError(app, e);
    app.setStatus('error', `Python: ${messageOf(e)}`, 0);
  } finally {
    py.busy = false;
    app.emit('options', 'controls');
  }
}

/**
 * Off: the searches stop sending the code (it stays in the panel).
 * @param {AppState} app
 */
export function codeOff(app) {
  const py = app.python;
  py.ran = null;
  py.note = '';
  app.emit('options', 'controls');
}

/**
 * A plan's request as it goes with Python on: the code, and a point unit's tile path (no width
 * or turning); unchanged with Python off.
 * @template {{options: Record<string, unknown>, turning: string | null, curves: string | null}} P
 * @param {AppState} app
 * @param {P} planned
 * @returns {P & {code?: string}}
 */
export function withCode(app, planned) {
  const ran = app.python.ran;
  if (ran === null) return planned;
  // eslint-disable-next-line no-unused-vars
  const { width, turning, radius, can_reverse, art, people, ...options } = planned.options;
  return { ...planned, options, turning: null, curves: null, code: ran };
}

/**
 * What a search with code said: its error (with the line) or what the result says of the code.
 * @param {AppState} app
 * @param {unknown} e  the error, or null when the search ended
 * @param {import('./protocol.js').SearchResult | null} res
 */
export function afterSearch(app, e, res) {
  if (e) {
    if (e instanceof EngineStoppedError) stoppedInCode(app, e);
    else showCodeError(app, e);
    return;
  }
  const u = res?.user_code;
  if (!u) return;
  app.python.error = null;
  const calls = `${u.calls.heuristic} heuristic() and ${u.calls.cost} cost() calls`;
  const verdict = u.admissible === false ? ' The heuristic overestimated or was not consistent: the path may not be least-cost.'
    : res?.optimal ? ' The path is least-cost.' : '';
  app.python.note = `Last search: ${calls}.${verdict}`;
  app.emit('options');
}
