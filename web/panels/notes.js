// @ts-check
/**
 * What the page tells about the user's work: the notice over the map (the last work restored,
 * or why saved work could not be), the Map panel's autosave line (saved as you go, or why not),
 * and the Reset button (back to the example and the default settings, after a confirmation).
 *
 * @module panels/notes
 */

import { resetWork } from '../io/autosave.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** The autosave line while the work is saved. */
const SAVING = 'Your map and settings are saved in this browser as you work.';

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function notesPanel(app, engine) {
  const notice = $('notice');
  const noticeText = /** @type {HTMLElement} */ (notice.querySelector('span'));
  const saveNote = $('save-note');

  $('notice-close').addEventListener('click', () => {
    app.notice = null;
    app.emit('notes');
  });
  $('reset').addEventListener('click', () => {
    if (window.confirm('Reset the lab to the example map and the default settings? Your current map is replaced.')) {
      resetWork(app, engine);
    }
  });

  function show() {
    const n = app.notice;
    notice.hidden = !n;
    noticeText.textContent = n ? n.text : '';
    notice.classList.toggle('is-error', !!n && n.error);
    saveNote.textContent = app.saveNote || SAVING;
    saveNote.classList.toggle('warn', !!app.saveNote);
  }

  app.on('notes', show);
  show();
}
