// @ts-check
/**
 * Share links: the work's snapshot (io/work.js, the one autosave keeps) in the URL's fragment,
 * packed by io/linkcodec.js. Making one: the page's address with `#arcstar=1.<data>`, or why
 * there is none (a map too large for a link: the work file goes instead). Opening one (at load,
 * or pasted into the address bar of an open lab: `hashchange`): checked in full, then shown as
 * one undo step; a damaged or hostile link changes nothing and the status line says why. The
 * fragment is then cleared, so a reload does not open it again over later work.
 *
 * @module io/share
 */

import { messageOf } from '../util.js';
import { SAVE_KEY } from './autosave.js';
import { decodeFragment, encodeFragment, isShareFragment, MAX_LINK_CHARS } from './linkcodec.js';
import { openWork, readWork, workText } from './work.js';
import { pendingNote } from '../python.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** Where the saved work is kept when a link is opened over it (it stays until the next link). */
export const BEFORE_LINK_KEY = 'arcstar.lab.v1.before-link';

/**
 * A link to the work as it is now, or why there is none (`tooLong`: its length, when only its size is at fault).
 * @param {AppState} app
 * @returns {Promise<{link: string} | {why: string, tooLong: number | null}>}
 */
export async function makeLink(app) {
  const snap = workText(app);
  if ('why' in snap) return { why: `there is no link for this work: ${snap.why}. Save it as a file instead.`, tooLong: null };
  const base = location.href.replace(/#.*$/s, '');
  const link = `${base}#${await encodeFragment(snap.text)}`;
  if (link.length > MAX_LINK_CHARS) {
    return {
      why: `the link would be ${link.length.toLocaleString('en-US')} characters, over the ${MAX_LINK_CHARS.toLocaleString('en-US')} a link may have (longer ones get cut on the way by chat and mail programs). Save the work as a file instead: it opens the same.`,
      tooLong: link.length,
    };
  }
  return { link };
}

/** The address without its fragment, in the history (no reload, no new history entry). */
function clearFragment() {
  history.replaceState(history.state, '', location.href.replace(/#.*$/s, ''));
}

/**
 * Open the link in a location's hash, if it holds one: the work it carries replaces the work
 * shown as one undo step. Anything wrong with it leaves the work as it was, and the status line
 * says what.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} hash
 * @param {boolean} [atLoad]  opened with the page: also said in the notice over the map, which the
 *   engine's boot messages do not overwrite
 * @returns {Promise<boolean>} whether a link was opened
 */
export async function openLink(app, engine, hash, atLoad = false) {
  if (!isShareFragment(hash)) return false;
  clearFragment();
  try {
    const work = readWork(app, await decodeFragment(hash));
    try {
      const saved = localStorage.getItem(SAVE_KEY);
      if (saved !== null) localStorage.setItem(BEFORE_LINK_KEY, saved);
    } catch {
      /* storage unavailable: Undo still brings the work back */
    }
    await openWork(app, engine, work, 'open the shared link', 'link');
    const units = work.world ? `, ${work.world.units.length === 1 ? '1 unit' : `${work.world.units.length} units`}` : '';
    const text = `Opened the shared link: a ${work.map.width} x ${work.map.height} map with its costs, start and goal, settings${units}. Undo (Ctrl+Z) brings back your work.${pendingNote(app)}`;
    const ready = app.engineState === 'ready';
    app.setStatus(ready ? 'ready' : 'loading', `${text}${ready ? '' : ' The engine is still loading.'}`, ready ? 1 : null);
    if (atLoad) {
      app.notice = { text, error: false };
      app.emit('notes');
    }
    return true;
  } catch (e) {
    const text = `Error: the shared link could not be opened: ${messageOf(e)}. Your map and work are as they were.`;
    app.setStatus('error', text, 0);
    if (atLoad) {
      app.notice = { text, error: true };
      app.emit('notes');
    }
    return false;
  }
}

/**
 * Open links pasted into the address bar of the open lab.
 * @param {AppState} app
 * @param {Engine} engine
 */
export function listenForLinks(app, engine) {
  window.addEventListener('hashchange', () => {
    void openLink(app, engine, location.hash);
  });
}
