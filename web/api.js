// @ts-check
/**
 * `window.arcstar`: the page's API for tests and embedding. It sets things up as the controls
 * would (a map, settings) and reads the page back (state, the map's rows, what a tile shows,
 * where a tile is on the screen); end-to-end tests drive the page itself with mouse and keyboard.
 *
 * @module api
 */

import { readOptions, parseUnit } from './controls.js';
import { asciiRows, openRows } from './io/maps.js';
import { makeLink } from './io/share.js';
import { runSearch, cancelSearch } from './search.js';
import { chooseMethods, raceLength, raceSpeed } from './compare.js';
import { sliderToSpeed } from './playback.js';
import { setOptions } from './settings.js';
import { headingDeg, readHeadings, setHeading } from './headings.js';
import { LESTER_TILE_PX } from './view/viewport.js';
import { kindWork } from './maps/kinds.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LastResult} LastResult */
/** @typedef {import('./controls.js').SearchOptions} SearchOptions */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./view/render.js').Renderer} Renderer */

/**
 * @param {unknown} p
 * @param {string} name
 * @returns {[number, number]}
 */
function checkTile(p, name) {
  if (!Array.isArray(p) || p.length !== 2 || !p.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    throw new Error(`${name} must be a tile [x, y] of two integers (got ${JSON.stringify(p)})`);
  }
  return [p[0], p[1]];
}

/**
 * Build the API.
 * @param {{app: AppState, engine: Engine, renderer: Renderer, canvas: HTMLCanvasElement,
 *          drawNow: () => void, mapShown: Promise<unknown>, cursor: import('./cursor.js').KeyCursor}} lab
 *   drawNow: draws a frame if one is owed (read-backs must see what is on screen);
 *   mapShown: resolves when the first map is shown
 */
export function labApi(lab) {
  const { app, engine, renderer, canvas, drawNow } = lab;
  const model = app.model;
  return {
    /** Resolves when the example map is shown and the engine is ready to search. */
    ready: Promise.all([lab.mapShown, engine.ready]).then(() => true),

    /**
     * Replace the map with ASCII rows, read by the core: each terrain's character (`.` ground,
     * `#` wall, `=` road, `:` sand, `%` swamp, `^` hills, `~` water), `S` and `G` for the start
     * and the goal (optional). Rejects with a readable message, keeping the current map, if the
     * rows are malformed.
     * @param {string[]} rows
     */
    async setMap(rows) {
      await openRows(app, engine, rows);
      return { width: model.width, height: model.height };
    },

    /**
     * A link that opens the work as it is now (map, costs, start and goal with their headings,
     * settings, units) in another lab. Rejects with a readable Error when the work is too large
     * for a link (save it as a file instead).
     * @returns {Promise<string>}
     */
    async shareLink() {
      const made = await makeLink(app);
      if ('link' in made) return made.link;
      throw new Error(made.why);
    },

    /** The current map as ASCII rows (with S and G). */
    rows() {
      return asciiRows(app);
    },

    /**
     * Search (like the Find path button), draw the result and start the unit. Start and goal
     * default to the markers; given ones on open tiles also move the markers.
     * @param {{start?: [number, number], goal?: [number, number]}} [opts]
     * @returns {Promise<LastResult>}
     */
    async findPath(opts = {}) {
      const start = opts.start === undefined ? model.start : checkTile(opts.start, 'start');
      const goal = opts.goal === undefined ? model.goal : checkTile(opts.goal, 'goal');
      if (model.isOpen(start[0], start[1])) model.moveMarker('start', start);
      if (model.isOpen(goal[0], goal[1])) model.moveMarker('goal', goal);
      return runSearch(app, engine, [start[0], start[1]], [goal[0], goal[1]]);
    },

    /**
     * Turn the start or the goal (one undo step, as the knob, the wheel and R do): degrees
     * clockwise from east (90 = south), or null for none (the start faces east, the goal any
     * heading). Throws a readable Error, changing nothing, on anything else.
     * @param {'start' | 'goal'} which
     * @param {number | null} deg
     * @returns {{start: number | null, goal: number | null}} both headings now, degrees
     */
    setHeading(which, deg) {
      if (which !== 'start' && which !== 'goal') throw new Error(`setHeading takes "start" or "goal" (got ${JSON.stringify(which)})`);
      if (deg !== null && !(typeof deg === 'number' && Number.isFinite(deg))) {
        throw new Error(`a heading must be a finite number of degrees, or null for none (got ${JSON.stringify(deg)})`);
      }
      setHeading(app, which, deg);
      return { start: headingDeg(app, 'start'), goal: headingDeg(app, 'goal') };
    },

    /** Cancel the running search. @returns {boolean} whether one was running */
    cancel() {
      return cancelSearch(app, engine);
    },

    /**
     * Set search settings, e.g. {method: 'dijkstra', neighbours: 4}; the same names and values
     * as the plan options. Throws on an unknown one.
     * @param {Partial<SearchOptions>} partial
     */
    setOptions(partial) {
      return setOptions(app, partial);
    },

    /** The search settings as they would be sent, and the errors of bad fields. */
    options() {
      const { options, errors } = readOptions(app.search);
      const costErrors = Object.fromEntries([...app.costErrors].map(([c, m]) => [`cost ${app.terrainName(c)}`, m]));
      return { ...options, errors: { ...errors, ...costErrors } };
    },

    /** The terrain types with their current costs (null = impassable). */
    terrains() {
      return app.core.terrains.map((t) => ({ ...t, cost: model.costs[t.code] ?? null, selected: t.code === app.paint.code }));
    },

    /** The replay: {k, n, playing, speed, atEnd, current: [x, y] | null}, or null when there is none. */
    replay() {
      const r = app.replay?.player;
      if (!r) return null;
      const c = r.current;
      return {
        k: r.k,
        n: r.n,
        playing: r.playing,
        speed: sliderToSpeed(app.replaySlider),
        atEnd: r.atEnd,
        current: c >= 0 ? [c % r.width, Math.floor(c / r.width)] : null,
      };
    },

    /**
     * What the canvas shows in tile (x, y): in Lester's view (zoomed in), the scores as drawn
     * (`drawn: true`, numbers parsed from the drawn text, and the text in `text`); otherwise the
     * replayed state (`drawn: false`).
     * @param {number} x
     * @param {number} y
     */
    tileInfo(x, y) {
      if (!model.inBounds(x, y)) throw new Error(`tile (${x}, ${y}) is off the ${model.width}x${model.height} map`);
      drawNow();
      const d = renderer.drawn.get(y * model.width + x);
      if (d) {
        return { drawn: true, list: d.list, f: Number(d.f), g: Number(d.g), h: Number(d.h), parent: d.parent, text: { f: d.f, g: d.g, h: d.h } };
      }
      const player = app.replay?.player;
      if (player) return { drawn: false, ...player.tile(x, y) };
      return { drawn: false, list: null, f: null, g: null, h: null, parent: null };
    },

    /**
     * On a hex map or a waypoint graph, what the last frame drew of the search: the cells
     * ([col, row]) or point ids drawn open and closed, the one outlined as expanded last (null:
     * none), whether the path was drawn; null on squares (tileInfo reads those).
     */
    graphSearchDrawn() {
      drawNow();
      const d = renderer.graphDrawn;
      if (!d || model.kind === 'squares') return null;
      const w = model.width;
      /** @param {number} i */
      const at = (i) => (model.kind === 'hex' ? [i % w, Math.floor(i / w)] : i);
      return { kind: model.kind, open: d.open.map(at), closed: d.closed.map(at), current: d.current >= 0 ? at(d.current) : null, path: d.path };
    },

    /** The keyboard cursor: {x, y, active} (active: shown, the keys act on it), or null before it was shown. */
    cursor() {
      return lab.cursor.read();
    },

    /** The view: tile size (CSS px), the map's corner in the canvas, whether Lester's view is drawn. */
    view() {
      drawNow();
      const vp = app.viewport;
      return {
        tileSize: vp.tileSize,
        ox: vp.ox,
        oy: vp.oy,
        width: vp.cssW,
        height: vp.cssH,
        fitted: vp.fitted,
        lester: renderer.lesterView,
        lesterFrom: LESTER_TILE_PX,
      };
    },

    /**
     * Where the centre of tile (x, y) is on the screen (client CSS pixels).
     * @param {number} x
     * @param {number} y
     */
    tileToClient(x, y) {
      return app.viewport.toClient(canvas.getBoundingClientRect(), x + 0.5, y + 0.5);
    },

    /**
     * Where a point (tiles, not a tile's centre) is on the screen (client CSS pixels).
     * @param {number} x
     * @param {number} y
     */
    pointToClient(x, y) {
      return app.viewport.toClient(canvas.getBoundingClientRect(), x, y);
    },

    /**
     * The units in motion as the page shows them: the world's clock and play state, every unit
     * (id, kind, team, width, x, y, heading, speed, status, note, orders, whether it has a path and
     * how many claimed tiles), the selection, the metrics, the last message, the toggles, the order a
     * right-click gives and the points marked for it.
     */
    world() {
      const w = app.world;
      return {
        on: w.on,
        mode: w.mode,
        tool: w.tool,
        team: w.team,
        running: w.running,
        speed: w.speed,
        time: w.time,
        lag: w.lag,
        ticks: w.ticks,
        states: w.states,
        loads: w.loads,
        avoidance: w.avoidance,
        avoidances: w.info ? [...w.info.avoidance] : [],
        fogBuilt: !!w.info?.fog,
        fog: w.fog,
        player: w.player,
        known: w.known ? Array.from(w.known).reduce((n, v) => n + (v ? 1 : 0), 0) : null,
        preset: w.preset,
        presets: w.info ? [...w.info.presets] : [],
        showClaimed: w.showClaimed,
        showPaths: w.showPaths,
        selected: [...w.selected],
        events: w.events.map((e) => ({ ...e })),
        metrics: w.metrics ? { ...w.metrics } : null,
        message: w.message ? { ...w.message } : null,
        order: { kind: w.order.kind, points: w.order.points.map((p) => [...p]) },
        units: w.units.map((u) => ({
          id: u.id, kind: u.kind, team: u.team, width: u.width, x: u.x, y: u.y, heading: u.heading, speed: u.speed,
          status: u.status, note: u.note, orders: [...u.orders], path: !!u.path, claimed: u.claimed.length,
        })),
      };
    },

    /**
     * Under fog, whether the fog player's team has seen tile (x, y) (the map draws it undimmed);
     * null when no team's known map is shown.
     * @param {number} x
     * @param {number} y
     */
    knownAt(x, y) {
      const known = app.world.known;
      if (!known || !model.inBounds(x, y)) return null;
      return known[y * model.width + x] !== 0;
    },

    /** A snapshot of the page's state (tile units; heading radians, 0 = +x, pi/2 = +y). */
    state() {
      const unit = app.unit;
      unit.update(performance.now());
      const r = app.result;
      const bench = app.bench;
      return {
        width: model.width,
        height: model.height,
        version: model.version,
        map: app.mapKey,
        generator: app.generator ? { ...app.generator } : null,
        python: { code: app.python.code, on: app.python.ran !== null, ran: app.python.ran, pending: app.python.pending,
          error: app.python.error ? { text: app.python.error.text, ...(app.python.error.codeError ?? {}) } : null },
        start: [...model.start],
        goal: [...model.goal],
        // As they would be sent: radians (null: none); as typed: degrees text; the marker the keys turn.
        headings: { ...readHeadings(app.unitInput), typed: { start: app.unitInput.start_heading, goal: app.unitInput.goal_heading }, focus: app.markerFocus },
        searching: app.searching,
        searches: app.searches,
        engine: app.engineState,
        canUndo: model.canUndo(),
        canRedo: model.canRedo(),
        tileSize: app.viewport.tileSize,
        costs: [...model.costs],
        paint: app.paint.code,
        brush: app.paint.brush,
        tool: app.paint.tool,
        worker: { ...engine.stats },
        lastResult: r ? { ...r, path: r.path ? r.path.map((p) => [...p]) : undefined } : null,
        unit: {
          x: unit.pose.x,
          y: unit.pose.y,
          heading: unit.pose.heading,
          gear: unit.pose.gear ?? 1,
          moving: unit.moving,
          speed: unit.currentSpeed,
          factor: unit.factor,
          pivoting: !!unit.pivot,
          travelled: unit.travelled,
          width: unit.width,
        },
        resultStale: app.resultStale,
        noReplay: app.replay ? null : app.noReplay,
        settingsNote: app.settingsNote ? app.settingsNote.text : null,
        saveNote: app.saveNote,
        notice: app.notice ? { ...app.notice } : null,
        helpOpen: app.helpOpen,
        benchmark: bench ? { name: bench.name, scenarios: bench.scenarios.length, chosen: bench.chosen ? { ...bench.chosen } : null } : null,
        // squares, hex (orientation; cells and markers are offset col, row) or waypoints (the graph, tile units)
        kind: { ...kindWork(app), selected: model.waypoints.selected, shownPath: app.shown?.nodes ? [...app.shown.nodes] : null },
      };
    },

    /** Pinter's Figure 1 after a Compare: [{label, key, length, turns, legal, status, visible}], or null. */
    compare() {
      const plans = app.compare.plans;
      return plans
        ? plans.map((e) => ({ key: e.key, label: e.label, length: e.length, turns: e.turns, legal: e.legal, status: e.status, visible: e.visible }))
        : null;
    },

    /**
     * Choose compare mode's methods (as ticking their boxes would): 2 to 4 distinct names the
     * engine offers. Throws a readable Error, changing nothing, on anything else.
     * @param {string[]} names
     * @returns {string[]} the methods chosen, in the engine's order
     */
    compareMethods(names) {
      return chooseMethods(app, names);
    },

    /**
     * Compare mode as the page shows it: the methods ticked, whether the comparison is shown or
     * running, why the last choice or run was refused, and per method its row (time ms, nodes
     * expanded, length, cost, legal, the core's status) and race position; the race's expansion,
     * length, play state and speed (expansions a second).
     */
    comparison() {
      const cm = app.methods;
      return {
        methods: [...cm.chosen],
        open: cm.open,
        layout: cm.layout,
        running: cm.running,
        finished: cm.finished,
        error: cm.error,
        stale: !!cm.map && cm.map.version !== model.version,
        runs: (cm.runs ?? []).map((r) => ({
          method: r.method, label: r.label, color: r.color, state: r.state, status: r.status, ran: r.ran, ms: r.ms,
          expanded: r.expanded, length: r.length, cost: r.cost, legal: r.legal, message: r.message,
          recorded: !!r.replay, k: r.replay ? r.replay.k : null, n: r.replay ? r.replay.n : null,
          path: r.tiles.map((t) => [...t]),
        })),
        race: { k: cm.race.k, n: raceLength(app), playing: cm.race.playing, speed: raceSpeed(app) },
      };
    },

    /** The unit's settings as they would be sent, and the errors of bad fields. */
    unitOptions() {
      const { values, errors } = parseUnit(app.unitInput);
      return { ...values, errors };
    },

    /**
     * Test hook: send a raw message to the worker (bypassing the page's checks) and resolve
     * with its answer, e.g. {type:'error', id, message}.
     * @param {any} msg
     */
    _rawPlan(msg) {
      return engine.raw(msg);
    },
  };
}
