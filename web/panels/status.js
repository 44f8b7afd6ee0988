// @ts-check
/**
 * The status line (what the engine and the last search are doing, with a progress bar) and the
 * Find path and Cancel buttons with the hint shown while Find path cannot search.
 *
 * @module panels/status
 */

import { cancelSearch, findFromUi } from '../search.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function statusPanel(app, engine) {
  const box = /** @type {HTMLElement} */ (document.querySelector('[data-testid="status"]'));
  const text = /** @type {HTMLElement} */ (document.querySelector('[data-testid="status-text"]'));
  const bar = /** @type {HTMLProgressElement} */ (document.querySelector('[data-testid="progress"]'));
  const findBtn = /** @type {HTMLButtonElement} */ ($('find'));
  const cancelBtn = /** @type {HTMLButtonElement} */ ($('cancel'));
  const hint = $('find-hint');
  const loadingHint = hint.textContent;

  findBtn.addEventListener('click', () => findFromUi(app, engine));
  cancelBtn.addEventListener('click', () => cancelSearch(app, engine));

  function showStatus() {
    const { state, progress } = app.status;
    box.dataset.state = state;
    box.classList.toggle('is-error', state === 'error');
    text.textContent = app.status.text;
    if (progress === null) bar.removeAttribute('value');
    else bar.value = progress;
  }

  function showControls() {
    const ready = app.engineState === 'ready';
    findBtn.disabled = !ready;
    findBtn.title = ready
      ? 'Find a path from S to G (Enter)'
      : app.engineState === 'failed'
        ? 'The engine failed to load: see the status line'
        : 'The engine is still loading (Pyodide, numpy, arcstar)';
    hint.hidden = ready;
    hint.textContent =
      app.engineState === 'failed' ? 'The search engine could not be loaded; the editor still works.' : app.findHint || loadingHint;
    cancelBtn.disabled = !app.searching;
  }

  app.on('status', showStatus);
  app.on('controls', showControls);
  showStatus();
  showControls();
}
