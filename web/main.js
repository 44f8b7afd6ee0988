// @ts-check
/**
 * The lab page: builds the app state from the core's data, starts the search engine (a Web
 * Worker running arcstar in Pyodide), wires the panels, the map editor, the keyboard and the
 * canvas view to the state, and exposes `window.arcstar` for tests and embedding.
 *
 * @module main
 */

import { labApi } from './api.js';
import { AppState } from './app.js';
import { adoptWorker } from './boot.js';
import { PROVISIONAL_CHOICES, defaultSearchInput, defaultUnitInput } from './controls.js';
import { followModel } from './edits.js';
import { Editor } from './editor.js';
import { Engine } from './engine.js';
import { keepForOffline, showIsolation } from './hosting.js';
import { builtInMap, loadCoreData } from './io/coredata.js';
import { autosave, restoreWork } from './io/autosave.js';
import { loadBenchIndex, showMap } from './io/maps.js';
import { listenForLinks, openLink } from './io/share.js';
import { listenToCommands } from './commander.js';
import { KeyCursor } from './cursor.js';
import { listenToKeys } from './keys.js';
import { benchPanel } from './panels/bench.js';
import { comparePanel } from './panels/compare.js';
import { compareModePanel } from './panels/comparemode.js';
import { generatePanel } from './panels/generate.js';
import { helpPanel } from './panels/help.js';
import { mapPanel } from './panels/map.js';
import { mapKindPanel } from './panels/mapkind.js';
import { followKind } from './maps/kinds.js';
import { notesPanel } from './panels/notes.js';
import { pythonPanel } from './panels/python.js';
import { replayPanel } from './panels/replay.js';
import { searchPanel } from './panels/search.js';
import { statusPanel } from './panels/status.js';
import { terrainPanel } from './panels/terrain.js';
import { unitPanel } from './panels/unit.js';
import { unitsPanel } from './panels/units.js';
import { viewbarPanel } from './panels/viewbar.js';
import { advanceReplay } from './playback.js';
import { advanceRace } from './compare.js';
import { applyInfo } from './settings.js';
import { $, messageOf } from './util.js';
import { cssVariables } from './view/colors.js';
import { Renderer } from './view/render.js';
import { followWorld, restartWorld } from './world.js';

const canvas = /** @type {HTMLCanvasElement} */ ($('map'));

/** The app state, once the core's data has come. */
const appMade = loadCoreData().then((core) => {
  const choices = { ...PROVISIONAL_CHOICES, neighbours: ['8', '4'] };
  return new AppState(core, builtInMap(core, 'example'), {
    search: defaultSearchInput(),
    unit: defaultUnitInput(),
    choices: Object.fromEntries(Object.entries(choices).map(([k, v]) => [k, [...v]])),
  });
});

/**
 * The engine's boot progress in the state; once ready, the menus take the engine's lists.
 * @param {AppState} app
 * @param {import('./engine.js').BootInfo} boot
 */
function showBoot(app, boot) {
  if (boot.stage === 'ready') {
    app.engineState = 'ready';
    const before = app.engineStopped ? `${app.engineStopped}. A new engine is ready; your map and settings are kept. ` : '';
    app.engineStopped = '';
    if (!app.searching) app.setStatus('ready', `${before}${boot.message}. Press Enter or click Find path.`, 1);
    engine
      .request({ type: 'info' })
      .then((info) => applyInfo(app, info))
      .catch((e) => app.setStatus('error', `Error: the engine could not list its methods: ${messageOf(e)}`, 0));
    engine
      .request({ type: 'world_info' })
      .then((info) => {
        app.world.info = info;
        app.emit('world');
        // A new engine after a crash: the units come back where they stood.
        if (app.world.on) void restartWorld(app, engine, 'The engine started again: the units are back where they stood (their orders are dropped).');
      })
      .catch((e) => app.setStatus('error', `Error: the engine could not say what the world offers: ${messageOf(e)}`, 0));
  } else if (boot.stage === 'restarting') {
    app.engineState = 'loading';
    app.engineStopped = `The engine stopped (${boot.reason ?? 'unknown reason'})`;
    app.setStatus('loading', boot.message, 0);
  } else if (boot.stage === 'failed') {
    app.engineState = 'failed';
    app.setStatus('error', boot.message, 0);
  } else {
    app.setStatus('loading', `${boot.message} ${Math.round(boot.progress * 100)}%`, boot.progress);
  }
  app.emit('controls');
}

// Started at once: Pyodide takes seconds to load; the page meanwhile draws and edits the map.
const engine = new Engine(new URL('./worker.js', import.meta.url), (boot) => appMade.then((app) => showBoot(app, boot)), {
  worker: adoptWorker(),
});
engine.ready.catch(() => {
  /* shown in the status line */
});
const app = await appMade;
const renderer = new Renderer(canvas);

/** Draw a frame if one is owed. */
function drawNow() {
  if (!app.dirty) return;
  app.unit.update(performance.now());
  renderer.draw(app);
  app.dirty = false;
}

/** @param {number} now */
function frame(now) {
  advanceReplay(app, now);
  advanceRace(app, now);
  const moving = app.unit.moving;
  app.unit.update(now);
  if (moving || app.world.running) app.dirty = true;
  drawNow();
  requestAnimationFrame(frame);
}

for (const [name, value] of Object.entries(cssVariables())) document.documentElement.style.setProperty(name, value);
followModel(app, engine);
followWorld(app, engine);
listenToCommands(canvas, app, engine);
new Editor(canvas, app);
statusPanel(app, engine);
searchPanel(app, engine);
unitPanel(app);
unitsPanel(app, engine);
comparePanel(app);
compareModePanel(app, engine);
terrainPanel(app);
mapPanel(app, engine, canvas);
mapKindPanel(app);
followKind(app);
generatePanel(app, engine);
benchPanel(app);
replayPanel(app);
viewbarPanel(app, canvas);
notesPanel(app, engine);
helpPanel(app);
pythonPanel(app, engine);
showIsolation(self.crossOriginIsolated);
const cursor = new KeyCursor(canvas, app, engine);
listenToKeys(app, engine, canvas, cursor);
app.emit('controls', 'maps', 'view', 'hover');
requestAnimationFrame(frame);
loadBenchIndex(app);

// The last work comes back (or the example); from then on every change is saved.
const mapShown = restoreWork(app, engine)
  .catch((e) => {
    // Still give the user a map to work on.
    showMap(app, engine, builtInMap(app.core, 'empty'), 'empty');
    app.setStatus('error', `Error: ${messageOf(e)}`, 0);
  })
  // A share link in the address opens over it (one undo step brings the restored work back).
  .then(() => openLink(app, engine, location.hash, true))
  .then(() => {
    autosave(app);
    listenForLinks(app, engine);
  });
void keepForOffline(engine.ready);
/** @type {any} */ (window).arcstar = labApi({ app, engine, renderer, canvas, drawNow, mapShown, cursor });
