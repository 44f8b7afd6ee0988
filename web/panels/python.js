// @ts-check
/**
 * The Python panel: a text area with the user's heuristic() and cost(), Run (Ctrl+Enter in the
 * code) and Off, what the searches use now, the last error with its line (Show line selects it),
 * and, for code that came with a link or a file, that it has not been run.
 *
 * @module panels/python
 */

import { codeOff, editCode, runCode } from '../python.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/**
 * Select line `n` (1-based) of a text area and scroll it into view.
 * @param {HTMLTextAreaElement} area
 * @param {number} n
 */
function selectLine(area, n) {
  const lines = area.value.split('\n');
  const k = Math.min(Math.max(n, 1), lines.length) - 1;
  const from = lines.slice(0, k).reduce((sum, l) => sum + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(from, from + lines[k].length);
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 16;
  area.scrollTop = Math.max(0, (k - 2) * lineHeight);
}

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function pythonPanel(app, engine) {
  const area = /** @type {HTMLTextAreaElement} */ ($('python-code'));
  const run = /** @type {HTMLButtonElement} */ ($('python-run'));
  const off = /** @type {HTMLButtonElement} */ ($('python-off'));
  const state = $('python-state');
  const note = $('python-note');
  const fold = /** @type {HTMLDetailsElement} */ ($('python-fold'));
  const pending = $('python-pending');
  const error = $('python-error');
  const errorText = $('python-error-text');
  const goto = /** @type {HTMLButtonElement} */ ($('python-goto'));

  function show() {
    const py = app.python;
    if (area.value !== py.code) area.value = py.code;
    const on = py.ran !== null;
    const edited = on && py.ran !== py.code;
    state.dataset.on = String(on);
    const fns = py.functions.map((f) => `${f}()`).join(' and ') || 'this code';
    state.textContent = py.busy ? 'Checking the code…'
      : !on ? 'Off: searches use the lab\'s own heuristic and terrain costs.'
        : edited ? `On, with the code as last run (${fns}): you edited it since, press Run to use the changes.`
          : `On: Find path uses ${fns} (A* or Dijkstra, the tile path of a point unit, on square maps).`;
    note.textContent = py.note;
    note.hidden = !py.note || !on;
    pending.hidden = !py.pending;
    if (py.pending) fold.open = true; // code from a link is shown, not hidden in a folded panel
    pending.textContent = py.pending
      ? `This code came with ${py.pending === 'link' ? 'the shared link' : 'the work file'} you opened and has not been run. Read it first: it runs as your own code in this tab. Press Run to use it.`
      : '';
    const err = py.error;
    error.hidden = !err;
    errorText.textContent = err ? err.text : '';
    const line = err?.codeError?.line ?? null;
    goto.hidden = line === null;
    goto.dataset.line = line === null ? '' : String(line);
    goto.textContent = line === null ? '' : `Show line ${line}`;
    area.setAttribute('aria-invalid', String(!!err && line !== null));
    run.disabled = py.busy || app.engineState !== 'ready';
    run.title = app.engineState !== 'ready' ? 'The engine is still loading' : 'Check the code and use it for the next searches (Ctrl+Enter)';
    off.disabled = !on;
  }

  area.addEventListener('input', () => editCode(app, area.value));
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void runCode(app, engine);
    } else if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && area.selectionStart === area.selectionEnd) {
      // Tab indents inside the code (Python needs it); Escape then Tab leaves the text area.
      if (area.dataset.escaped === 'true') return;
      e.preventDefault();
      area.setRangeText('    ', area.selectionStart, area.selectionEnd, 'end');
      editCode(app, area.value);
    }
    area.dataset.escaped = String(e.key === 'Escape');
  });
  run.addEventListener('click', () => void runCode(app, engine));
  off.addEventListener('click', () => codeOff(app));
  goto.addEventListener('click', () => {
    const n = Number(goto.dataset.line);
    if (n >= 1) selectLine(area, n);
  });
  app.on('options', show);
  app.on('controls', show);
  show();
}
