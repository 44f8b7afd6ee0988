// The share link's codec (web/io/linkcodec.js): what it writes is standard raw deflate in
// base64url (checked with node:zlib, not the codec), it reads back every text exactly, and every
// kind of damaged or hostile fragment is refused with its own code, the bomb before it is inflated whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  decodeFragment, encodeFragment, fromBase64url, isShareFragment, LINK_VERSION, LinkError, MAX_FRAGMENT_CHARS, toBase64url,
} from '../../web/io/linkcodec.js';

const b64url = (/** @type {Buffer} */ b) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** @param {string} frag @param {string} code */
async function refused(frag, code) {
  await assert.rejects(decodeFragment(frag), (e) => e instanceof LinkError && e.code === code && e.message.length > 10, `${code}: ${frag.slice(0, 40)}`);
}

test('a fragment is raw deflate of the text in base64url, with its version', async () => {
  const text = JSON.stringify({ format: 'arcstar-work', v: 1, map: { runs: [0, 1536] }, name: 'café ☕' });
  const frag = await encodeFragment(text);
  assert.match(frag, /^arcstar=1\.[A-Za-z0-9_-]+$/);
  assert.equal(LINK_VERSION, 1);
  const data = Buffer.from(frag.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  assert.equal(inflateRawSync(data).toString('utf8'), text);
  assert.equal(await decodeFragment(`#${frag}`), text);
});

test('texts of every shape read back exactly', async () => {
  let seed = 3;
  for (let n = 0; n < 40; n++) {
    let text = '';
    const len = n * n * 7;
    for (let i = 0; i < len; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += String.fromCodePoint(seed % 7 === 0 ? 0x1f600 + (seed % 50) : 32 + (seed % 90));
    }
    assert.equal(await decodeFragment(await encodeFragment(text)), text);
  }
});

test('what node:zlib deflates, the codec reads', async () => {
  const text = '{"a": [1, 2, 3]}'.repeat(100);
  assert.equal(await decodeFragment(`arcstar=1.${b64url(deflateRawSync(Buffer.from(text)))}`), text);
});

test('base64url round trips all byte values and refuses other text', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  assert.deepEqual(fromBase64url(toBase64url(all)), all);
  for (const bad of ['ab+c', 'ab/c', 'a b', 'abcde', '€€€€', 'ab=c']) {
    assert.throws(() => fromBase64url(bad), (e) => e instanceof LinkError && e.code === 'base64', bad);
  }
});

test('damaged and hostile fragments are refused, each with its code', async () => {
  const good = await encodeFragment('{"v": 1}');
  const payload = good.split('.')[1];
  await refused('#somewhere', 'not_ours');
  await refused(`arcstar=2.${payload}`, 'version');
  await refused(`arcstar=${payload}`, 'base64');
  await refused(`arcstar=1.${payload.slice(0, 3)}*${payload.slice(4)}`, 'base64');
  await refused(`arcstar=1.${payload.slice(0, Math.floor(payload.length / 2))}`, 'deflate');
  await refused(`arcstar=1.${b64url(Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x42]))}`, 'deflate');
  await refused(`arcstar=1.${b64url(deflateRawSync(Buffer.from([0xc3, 0x28, 0xa0, 0xa1])))}`, 'text');
  await refused(`arcstar=1.${'A'.repeat(MAX_FRAGMENT_CHARS)}`, 'too_long');
  assert.equal(isShareFragment(good), true);
  assert.equal(isShareFragment('#arcstar=1.x'), true);
  assert.equal(isShareFragment('#other=1.x'), false);
});

test('a decompression bomb stops at the cap, early', async () => {
  const bomb = deflateRawSync(Buffer.alloc(200_000_000, 32), { level: 9 }); // 200 MB of spaces
  assert.ok(bomb.length < 300_000);
  const frag = `arcstar=1.${b64url(bomb)}`;
  const before = process.memoryUsage().arrayBuffers;
  await assert.rejects(decodeFragment(frag, 1_000_000), (e) => e instanceof LinkError && e.code === 'too_large');
  // It never held the whole output: far less than 200 MB was allocated.
  assert.ok(process.memoryUsage().arrayBuffers - before < 50_000_000);
  // Just under the cap is read.
  const fits = `arcstar=1.${b64url(deflateRawSync(Buffer.alloc(999_000, 32)))}`;
  assert.equal((await decodeFragment(fits, 1_000_000)).length, 999_000);
});
