// @ts-check
/**
 * The map model and its undoable commands.
 *
 * The model holds the terrain (a Uint8Array of codes, row-major, index
 * y * width + x), the move cost of each terrain type (null = impassable) and
 * the start and goal tiles. Every change goes through a command kept in the
 * history, so it can be undone and redone: painting, moving a marker, editing
 * a terrain cost, choosing a scenario. A drag stroke is gathered into one
 * command with beginStroke()/endStroke().
 *
 * `version` changes whenever the terrain or a cost changes (never reused, also
 * not by undo, nor by loading another map), so the worker can key its map cache by it.
 *
 * The map's kind (squares, hex, waypoints; maps/kinds.js switches it) is kept here too: a hex
 * map is these same cells as offset (column, row) hexes, a waypoint graph is its own data.
 *
 * @module state
 */

import { WaypointGraph } from './maps/waypointgraph.js';

/** @typedef {[number, number]} Tile */

/**
 * @typedef {Object} Command
 * @property {string} label  shown in the Undo/Redo button titles
 * @property {(m: MapModel) => void} undo
 * @property {(m: MapModel) => void} redo
 */

/**
 * @typedef {'cells' | 'costs' | 'markers' | 'load' | 'history'} ChangeKind
 */

/** A set of terrain changes: flat index -> [old code, new code]. */
class CellsCommand {
  /** @param {string} label */
  constructor(label) {
    this.label = label;
    /** @type {Map<number, [number, number]>} */
    this.changes = new Map();
  }

  /** @param {MapModel} m */
  undo(m) {
    for (const [i, [before]] of this.changes) m.cells[i] = before;
    m._touchCells();
  }

  /** @param {MapModel} m */
  redo(m) {
    for (const [i, [, after]] of this.changes) m.cells[i] = after;
    m._touchCells();
  }
}

/** A move of the start or the goal. */
class MarkerCommand {
  /**
   * @param {'start' | 'goal'} which
   * @param {Tile} from
   * @param {Tile} to
   */
  constructor(which, from, to) {
    this.label = which === 'start' ? 'move start' : 'move goal';
    this.which = which;
    this.from = from;
    this.to = to;
  }

  /** @param {MapModel} m */
  undo(m) {
    m[this.which] = copyTile(this.from);
    m._emit('markers');
  }

  /** @param {MapModel} m */
  redo(m) {
    m[this.which] = copyTile(this.to);
    m._emit('markers');
  }
}

/** Both markers at once (choosing a benchmark scenario). */
class MarkersCommand {
  /**
   * @param {{start: Tile, goal: Tile}} from
   * @param {{start: Tile, goal: Tile}} to
   * @param {string} label
   */
  constructor(from, to, label) {
    this.label = label;
    this.from = from;
    this.to = to;
  }

  /** @param {MapModel} m */
  undo(m) {
    m.start = copyTile(this.from.start);
    m.goal = copyTile(this.from.goal);
    m._emit('markers');
  }

  /** @param {MapModel} m */
  redo(m) {
    m.start = copyTile(this.to.start);
    m.goal = copyTile(this.to.goal);
    m._emit('markers');
  }
}

/** A change of one terrain type's move cost. */
class CostCommand {
  /**
   * @param {number} code
   * @param {number | null} from
   * @param {number | null} to
   * @param {string} name
   */
  constructor(code, from, to, name) {
    this.label = `set the cost of ${name}`;
    this.code = code;
    this.from = from;
    this.to = to;
  }

  /** @param {MapModel} m */
  undo(m) {
    m.costs[this.code] = this.from;
    m._touchCosts();
  }

  /** @param {MapModel} m */
  redo(m) {
    m.costs[this.code] = this.to;
    m._touchCosts();
  }
}

/** Several terrain costs at once (a map file that brings its own). */
class CostsCommand {
  /**
   * @param {Array<number | null>} from
   * @param {Array<number | null>} to
   * @param {string} label
   */
  constructor(from, to, label) {
    this.label = label;
    this.from = from;
    this.to = to;
  }

  /** @param {MapModel} m */
  undo(m) {
    m.costs = [...this.from];
    m._touchCosts();
  }

  /** @param {MapModel} m */
  redo(m) {
    m.costs = [...this.to];
    m._touchCosts();
  }
}

/** A stroke that may both paint tiles and move a marker (kept as one step). */
class StrokeCommand {
  /** @param {string} label */
  constructor(label) {
    this.label = label;
    /** @type {Command[]} */
    this.parts = [];
  }

  /** @param {MapModel} m */
  undo(m) {
    for (let i = this.parts.length - 1; i >= 0; i--) this.parts[i].undo(m);
  }

  /** @param {MapModel} m */
  redo(m) {
    for (const p of this.parts) p.redo(m);
  }
}

/**
 * The whole map replaced (a generated or a resized map): undo brings the old one back, whole.
 * @typedef {{width: number, height: number, cells: Uint8Array, start: Tile, goal: Tile}} WholeMap
 */
class ReplaceCommand {
  /**
   * @param {WholeMap} from
   * @param {WholeMap} to
   * @param {string} label
   */
  constructor(from, to, label) {
    this.label = label;
    this.from = from;
    this.to = to;
  }

  /** @param {MapModel} m */
  undo(m) {
    m._put(this.from);
  }

  /** @param {MapModel} m */
  redo(m) {
    m._put(this.to);
  }
}

export class MapModel {
  /**
   * @param {{width: number, height: number, cells: Uint8Array,
   *          start?: Tile | null, goal?: Tile | null}} map
   * @param {{costs: Array<number | null>, ground: number, wall: number}} terrain  the core's
   *   default cost per terrain code, and the codes the Erase tool and Clear lay and the Paint tool starts with
   */
  constructor(map, terrain) {
    /** the terrain codes of ground and wall */
    this.ground = terrain.ground;
    this.wall = terrain.wall;
    /** the last version given out */
    this.versions = 0;
    /** @type {number} */ this.width = 0;
    /** @type {number} */ this.height = 0;
    /** @type {Uint8Array} */ this.cells = new Uint8Array(0);
    /** @type {Tile} */ this.start = [0, 0];
    /** @type {Tile} */ this.goal = [0, 0];
    /** @type {number} */ this.version = 0;
    /** @type {Command[]} */ this.undoStack = [];
    /** @type {Command[]} */ this.redoStack = [];
    /** @type {StrokeCommand | null} */ this.stroke = null;
    /** @type {Set<(kind: ChangeKind) => void>} */ this.listeners = new Set();
    /**
     * Move cost per terrain code (null = impassable; undefined = no such terrain).
     * @type {Array<number | null>}
     */
    this.costs = [...terrain.costs];
    /** @type {'squares' | 'hex' | 'waypoints'} what the map is: tiles, hexes (the same cells), or a waypoint graph */
    this.kind = 'squares';
    /** @type {import('./maps/hexgeom.js').Orientation} how hexes are drawn: pointy-top (odd-r rows) or flat-top (odd-q columns) */
    this.orientation = 'pointy';
    /** the waypoint graph (kept while another kind is shown) */
    this.waypoints = new WaypointGraph();
    this.load(map);
  }

  /**
   * Replace the whole map (a new map is opened: the history is cleared).
   * Start and goal come from the map; if it has none, the old ones are kept
   * when they are still open tiles on it, otherwise open tiles near the
   * top-left and bottom-right corners are chosen. Terrain costs stay as they
   * are unless the map brings its own (`costs`, per code).
   *
   * @param {{width: number, height: number, cells: Uint8Array,
   *          start?: Tile | null, goal?: Tile | null, costs?: Array<number | null>}} map
   */
  load(map) {
    const oldStart = this.start;
    const oldGoal = this.goal;
    const hadMap = this.cells.length > 0;
    this.width = map.width;
    this.height = map.height;
    this.cells = map.cells;
    if (map.costs) this.costs = [...map.costs];
    this.version = ++this.versions;
    this.start = map.start
      ? copyTile(map.start)
      : hadMap && this.isOpen(oldStart[0], oldStart[1])
        ? copyTile(oldStart)
        : this._firstOpen(false);
    this.goal = map.goal
      ? copyTile(map.goal)
      : hadMap && this.isOpen(oldGoal[0], oldGoal[1]) && !sameTile(oldGoal, this.start)
        ? copyTile(oldGoal)
        : this._firstOpen(true);
    this.undoStack = [];
    this.redoStack = [];
    this.stroke = null;
    this._emit('load');
  }

  /**
   * @param {boolean} fromEnd
   * @returns {Tile}
   */
  _firstOpen(fromEnd) {
    const n = this.cells.length;
    for (let k = 0; k < n; k++) {
      const i = fromEnd ? n - 1 - k : k;
      if (this.passable(this.cells[i])) return [i % this.width, Math.floor(i / this.width)];
    }
    return fromEnd ? [this.width - 1, this.height - 1] : [0, 0];
  }

  /** @param {(kind: ChangeKind) => void} fn */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @param {ChangeKind} kind */
  _emit(kind) {
    for (const fn of this.listeners) fn(kind);
  }

  _touchCells() {
    this.version = ++this.versions;
    this._emit('cells');
  }

  _touchCosts() {
    this.version = ++this.versions;
    this._emit('costs');
  }

  /**
   * Whether units can enter tiles of this terrain code.
   * @param {number} code
   */
  passable(code) {
    const c = this.costs[code];
    return typeof c === 'number' && c > 0;
  }

  /**
   * Set a terrain type's move cost (one undo step). The value must be a
   * positive finite number or null (impassable); anything else throws.
   * @param {number} code
   * @param {number | null} cost
   * @param {string} [name]  for the undo label
   * @returns {boolean} whether it changed
   */
  setCost(code, cost, name = `terrain ${code}`) {
    if (!Number.isInteger(code) || !(code in this.costs)) throw new Error(`There is no terrain with code ${code}`);
    if (cost !== null && !(typeof cost === 'number' && Number.isFinite(cost) && cost > 0)) {
      throw new Error(`The cost of ${name} must be a positive number, or null for impassable (got ${cost})`);
    }
    if (this.costs[code] === cost) return false;
    if (this.stroke) this.endStroke();
    const cmd = new CostCommand(code, this.costs[code], cost, name);
    cmd.redo(this);
    this._push(cmd);
    return true;
  }

  /**
   * Set every terrain cost at once (one undo step), e.g. from a map file that brings its own.
   * @param {Array<number | null>} costs  per code, as `costs`
   * @param {string} label
   * @returns {boolean} whether any changed
   */
  setCosts(costs, label) {
    if (costs.length !== this.costs.length || costs.every((c, i) => c === this.costs[i])) return false;
    if (this.stroke) this.endStroke();
    const cmd = new CostsCommand([...this.costs], [...costs], label);
    cmd.redo(this);
    this._push(cmd);
    return true;
  }

  /**
   * Put a change made outside the map in its history, already applied (the search settings a
   * preset changes), so Undo and Redo take it back and forth with the map's own steps.
   * @param {Command} change  its undo and redo are called without the model
   */
  record(change) {
    if (this.stroke) this.endStroke();
    this._push(change);
  }

  /**
   * Set both markers (one undo step), e.g. from a benchmark scenario. Tiles
   * must be on the map; they need not be passable under the current costs.
   * @param {Tile} start
   * @param {Tile} goal
   * @param {string} [label]
   * @returns {boolean} whether anything moved
   */
  setMarkers(start, goal, label = 'choose a scenario') {
    for (const [name, t] of /** @type {const} */ ([['start', start], ['goal', goal]])) {
      if (!Array.isArray(t) || !this.inBounds(t[0], t[1])) {
        throw new Error(`The ${name} ${JSON.stringify(t)} lies outside the ${this.width}x${this.height} map`);
      }
    }
    if (sameTile(start, this.start) && sameTile(goal, this.goal)) return false;
    if (this.stroke) this.endStroke();
    const cmd = new MarkersCommand(
      { start: copyTile(this.start), goal: copyTile(this.goal) },
      { start: copyTile(start), goal: copyTile(goal) },
      label,
    );
    cmd.redo(this);
    this._push(cmd);
    return true;
  }

  /**
   * Replace the whole map as one undo step (a generated or resized map), unlike `load`, which
   * starts a new history. Terrain costs stay. Start and goal must be on the new map.
   * @param {WholeMap} map
   * @param {string} label
   */
  replace(map, label) {
    for (const [name, t] of /** @type {const} */ ([['start', map.start], ['goal', map.goal]])) {
      if (!(Number.isInteger(t[0]) && Number.isInteger(t[1]) && t[0] >= 0 && t[1] >= 0 && t[0] < map.width && t[1] < map.height)) {
        throw new Error(`The ${name} ${JSON.stringify(t)} lies outside the ${map.width}x${map.height} map`);
      }
    }
    if (map.cells.length !== map.width * map.height) throw new Error('The map has not width x height tiles');
    if (this.stroke) this.endStroke();
    const from = { width: this.width, height: this.height, cells: this.cells, start: copyTile(this.start), goal: copyTile(this.goal) };
    const cmd = new ReplaceCommand(from, { ...map, start: copyTile(map.start), goal: copyTile(map.goal) }, label);
    cmd.redo(this);
    this._push(cmd);
  }

  /**
   * Show a whole map (a ReplaceCommand's undo and redo): a new version, and the 'load' news.
   * @param {WholeMap} map
   */
  _put(map) {
    this.width = map.width;
    this.height = map.height;
    this.cells = map.cells;
    this.start = copyTile(map.start);
    this.goal = copyTile(map.goal);
    this.version = ++this.versions;
    this._emit('load');
  }

  /** @param {number} x @param {number} y */
  inBounds(x, y) {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /**
   * Whether tile (x, y) is on the map and passable under the current costs.
   * @param {number} x @param {number} y
   */
  isOpen(x, y) {
    return this.inBounds(x, y) && this.passable(this.cells[y * this.width + x]);
  }

  /** @param {number} x @param {number} y */
  isMarker(x, y) {
    return sameTile(this.start, [x, y]) || sameTile(this.goal, [x, y]);
  }

  /**
   * Start a stroke: the edits until endStroke() are one undo step.
   * @param {string} label
   */
  beginStroke(label) {
    if (this.stroke) this.endStroke();
    this.stroke = new StrokeCommand(label);
  }

  /** Close the current stroke and put it in the history if it changed anything. */
  endStroke() {
    const s = this.stroke;
    this.stroke = null;
    if (!s) return;
    // Collapse a stroke into its parts' net effect.
    const useful = s.parts.filter((p) =>
      p instanceof CellsCommand
        ? p.changes.size > 0
        : !(p instanceof MarkerCommand) || !sameTile(p.from, p.to),
    );
    if (useful.length === 0) return;
    s.parts = useful;
    this._push(s.parts.length === 1 ? s.parts[0] : s);
  }

  /**
   * Take back the current stroke as if it never was (a second finger turned it into a pinch):
   * its edits are reverted and the history is left as it was before it began.
   */
  cancelStroke() {
    const s = this.stroke;
    this.stroke = null;
    if (s) s.undo(this);
  }

  /** @param {Command} cmd */
  _push(cmd) {
    this.undoStack.push(cmd);
    this.redoStack = [];
    this._emit('history');
  }

  /**
   * Set the terrain of a set of tiles. Start and goal tiles never get an
   * impassable terrain. Inside a stroke the change joins the stroke; otherwise
   * it is its own step.
   *
   * @param {Iterable<Tile>} tiles
   * @param {number} code
   * @param {string} [label]
   * @returns {number} how many tiles changed
   */
  paint(tiles, code, label = code === this.wall ? 'paint walls' : code === this.ground ? 'erase walls' : 'paint terrain') {
    /** @type {CellsCommand} */
    let cmd;
    const inStroke = this.stroke !== null;
    const last = inStroke && this.stroke ? this.stroke.parts[this.stroke.parts.length - 1] : null;
    if (last instanceof CellsCommand) cmd = last;
    else {
      cmd = new CellsCommand(label);
      if (inStroke && this.stroke) this.stroke.parts.push(cmd);
    }
    let changed = 0;
    for (const [x, y] of tiles) {
      if (!this.inBounds(x, y)) continue;
      if (!this.passable(code) && this.isMarker(x, y)) continue;
      const i = y * this.width + x;
      const before = this.cells[i];
      if (before === code) continue;
      const prev = cmd.changes.get(i);
      if (prev) {
        if (prev[0] === code) cmd.changes.delete(i);
        else prev[1] = code;
      } else {
        cmd.changes.set(i, [before, code]);
      }
      this.cells[i] = code;
      changed++;
    }
    if (changed) this._touchCells();
    if (!inStroke && cmd.changes.size) this._push(cmd);
    return changed;
  }

  /**
   * Set every tile to ground (one undo step).
   * @returns {number} how many tiles changed
   */
  clearWalls() {
    /** @type {Tile[]} */
    const tiles = [];
    for (let i = 0; i < this.cells.length; i++) {
      if (this.cells[i] !== this.ground) tiles.push([i % this.width, Math.floor(i / this.width)]);
    }
    if (this.stroke) this.endStroke();
    return this.paint(tiles, this.ground, 'clear the map');
  }

  /**
   * Move the start or the goal to an open tile that is not the other marker.
   *
   * @param {'start' | 'goal'} which
   * @param {Tile} to
   * @returns {boolean} whether it moved
   */
  moveMarker(which, to) {
    const other = which === 'start' ? this.goal : this.start;
    if (!this.isOpen(to[0], to[1]) || sameTile(other, to) || sameTile(this[which], to)) return false;
    const from = this[which];
    if (this.stroke) {
      // Within a drag only the first origin and the last target matter.
      const parts = this.stroke.parts;
      const prev = parts.find((p) => p instanceof MarkerCommand && p.which === which);
      if (prev instanceof MarkerCommand) prev.to = copyTile(to);
      else parts.push(new MarkerCommand(which, copyTile(from), copyTile(to)));
      this[which] = copyTile(to);
      this._emit('markers');
    } else {
      const cmd = new MarkerCommand(which, copyTile(from), copyTile(to));
      cmd.redo(this);
      this._push(cmd);
    }
    return true;
  }

  canUndo() {
    return this.undoStack.length > 0;
  }

  canRedo() {
    return this.redoStack.length > 0;
  }

  undo() {
    if (this.stroke) this.endStroke();
    const cmd = this.undoStack.pop();
    if (!cmd) return false;
    cmd.undo(this);
    this.redoStack.push(cmd);
    this._emit('history');
    return true;
  }

  redo() {
    if (this.stroke) this.endStroke();
    const cmd = this.redoStack.pop();
    if (!cmd) return false;
    cmd.redo(this);
    this.undoStack.push(cmd);
    this._emit('history');
    return true;
  }
}

/**
 * @param {Tile} t
 * @returns {Tile}
 */
export function copyTile(t) {
  return [t[0], t[1]];
}

/**
 * @param {Tile | null | undefined} a
 * @param {Tile | null | undefined} b
 */
export function sameTile(a, b) {
  return !!a && !!b && a[0] === b[0] && a[1] === b[1];
}
