// Share links: `#v1/` + base64url(deflate-raw(UTF-8 text)), no padding, in the page's fragment
// (never sent to a server). The browser's CompressionStream does the deflate (node 20 has it too).

export const PREFIX = '#v1/';

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const s = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

export async function encodeShare(text) {
  const deflated = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64url(deflated);
}

// The text of a `#v1/...` fragment; throws an Error saying what is wrong with a bad one.
export async function decodeShare(fragment) {
  if (!fragment.startsWith(PREFIX)) throw new Error('a shared program starts with #v1/');
  let bytes;
  try {
    bytes = fromBase64url(fragment.slice(PREFIX.length));
  } catch {
    throw new Error('the link is not base64url: was it cut short or changed?');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
  } catch {
    throw new Error('the link does not decompress: was it cut short or changed?');
  }
}
