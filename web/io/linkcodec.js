// @ts-check
/**
 * The share link's codec, pure (no page, no DOM: Node runs it too). A link's fragment is
 * `#arcstar=<version>.<data>`: the work's JSON text (its map already run-length encoded),
 * deflated (the platform's CompressionStream, 'deflate-raw') and written in base64url. The
 * version tells a later format apart. Decoding treats the fragment as hostile: its length, its
 * alphabet, the deflate stream and the size it inflates to (capped while streaming, so a
 * decompression bomb stops early) are all checked, and every failure is a LinkError whose `code`
 * says which.
 *
 * @module io/linkcodec
 */

/** The fragment's key and the link format written. */
export const LINK_KEY = 'arcstar';
export const LINK_VERSION = 1;
/**
 * The longest link offered (characters, the whole URL). Chromium takes URLs of up to 2 MB, but
 * links travel through chat, mail and documents, whose programs cut or refuse long ones well
 * before that; 32,000 characters is where Internet Explorer-era and server limits no longer
 * matter (the fragment never reaches a server) and a link still pastes whole. Typical lab maps
 * (up to a few hundred tiles a side with painted rooms) stay far below it; larger ones go as a file.
 */
export const MAX_LINK_CHARS = 32_000;
/** The longest fragment read (Chromium's own URL limit): anything longer is refused unread. */
export const MAX_FRAGMENT_CHARS = 2_000_000;
/** The most bytes a link may inflate to by default (the work snapshot's own limit). */
export const MAX_INFLATED_BYTES = 4_000_000;

/**
 * Why a link could not be read: `not_ours` (no arcstar fragment), `version` (another format),
 * `too_long` (the fragment), `base64` (not base64url), `deflate` (the data does not inflate: damaged
 * or cut short), `too_large` (it inflates past the cap), `text` (not UTF-8 text).
 */
export class LinkError extends Error {
  /**
   * @param {'not_ours' | 'version' | 'too_long' | 'base64' | 'deflate' | 'too_large' | 'text'} code
   * @param {string} message  for people
   */
  constructor(code, message) {
    super(message);
    this.name = 'LinkError';
    this.code = code;
  }
}

/**
 * Bytes as base64url (no padding).
 * @param {Uint8Array} bytes
 */
export function toBase64url(bytes) {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * base64url (padding optional) as bytes; throws LinkError('base64') on anything else.
 * @param {string} text
 */
export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new LinkError('base64', 'the link is damaged: its data is not base64url text (a character was changed or lost)');
  }
  const b64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  let bin;
  try {
    bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    throw new LinkError('base64', 'the link is damaged: its data is not base64url text');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Deflate a text ('deflate-raw').
 * @param {string} text
 * @returns {Promise<Uint8Array>}
 */
export async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Inflate 'deflate-raw' bytes, stopping as soon as the output passes `maxBytes`.
 * @param {Uint8Array} bytes
 * @param {number} maxBytes
 * @returns {Promise<Uint8Array>}
 */
export async function inflate(bytes, maxBytes) {
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  // The reader below sees the writer's errors too; these only keep them from going unhandled.
  writer.write(new Uint8Array(bytes)).catch(() => {});
  writer.close().catch(() => {});
  const reader = ds.readable.getReader();
  /** @type {Uint8Array[]} */
  const parts = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        throw new LinkError('too_large', `the link unpacks to more than ${maxBytes.toLocaleString('en-US')} bytes, more than the lab keeps: it was not made by the lab`);
      }
      parts.push(value);
    }
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('deflate', 'the link is damaged or cut short: its data does not unpack');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The fragment (without '#') for a text.
 * @param {string} text
 */
export async function encodeFragment(text) {
  return `${LINK_KEY}=${LINK_VERSION}.${toBase64url(await deflate(text))}`;
}

/**
 * Whether a location's hash (with or without '#') holds an arcstar link.
 * @param {string} hash
 */
export function isShareFragment(hash) {
  return hash.replace(/^#/, '').startsWith(`${LINK_KEY}=`);
}

/**
 * The text a fragment carries. Throws LinkError on a fragment that is not ours, of another
 * version, too long, not base64url, not deflate, inflating past `maxBytes`, or not UTF-8.
 * @param {string} hash  location.hash (with or without '#')
 * @param {number} [maxBytes]
 * @returns {Promise<string>}
 */
export async function decodeFragment(hash, maxBytes = MAX_INFLATED_BYTES) {
  const frag = hash.replace(/^#/, '');
  if (!isShareFragment(frag)) throw new LinkError('not_ours', 'the address holds no arcstar link');
  if (frag.length > MAX_FRAGMENT_CHARS) {
    throw new LinkError('too_long', `the link is ${frag.length.toLocaleString('en-US')} characters long, longer than any link the lab makes`);
  }
  const m = /^[^=]+=(\d{1,6})\.(.*)$/s.exec(frag);
  if (!m) throw new LinkError('base64', 'the link is damaged: it has no format version (arcstar=1.…)');
  if (Number(m[1]) !== LINK_VERSION) {
    throw new LinkError('version', `the link is in format ${m[1]}; this lab reads format ${LINK_VERSION} (it may come from a newer lab)`);
  }
  const bytes = await inflate(fromBase64url(m[2]), maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError('text', 'the link is damaged: it does not unpack to text');
  }
}
