// @ts-check
/**
 * The help overlay: the keys and what each panel does. The "?" button and the "?" key open it;
 * Escape, its close button or a click beside it close it, and the focus goes back where it was.
 *
 * @module panels/help
 */

import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/**
 * Open or close the help overlay.
 * @param {AppState} app
 * @param {boolean} open
 */
export function setHelp(app, open) {
  if (app.helpOpen === open) return;
  app.helpOpen = open;
  app.emit('help');
}

/** @param {AppState} app */
export function helpPanel(app) {
  const dialog = $('help-dialog');
  const openBtn = $('help-open');
  const closeBtn = $('help-close');

  openBtn.addEventListener('click', () => setHelp(app, true));
  closeBtn.addEventListener('click', () => setHelp(app, false));
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) setHelp(app, false);
  });

  function show() {
    const was = !dialog.hidden;
    dialog.hidden = !app.helpOpen;
    if (app.helpOpen && !was) closeBtn.focus();
    else if (!app.helpOpen && was) openBtn.focus();
  }

  app.on('help', show);
  show();
}
