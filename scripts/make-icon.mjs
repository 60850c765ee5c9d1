#!/usr/bin/env node
// Draws Tether's app icon (two linked nodes on a rounded square) into resources/icon.png (512 px,
// what electron-builder converts for every platform) and resources/icon.svg, without dependencies.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 512;
const BACKGROUND = [0x16, 0x1b, 0x22];
const ACCENT = [0x2f, 0x81, 0xf7];
const LIGHT = [0xe6, 0xed, 0xf3];
const nodeA = { x: 176, y: 336, r: 64 };
const nodeB = { x: 336, y: 176, r: 64 };
const LINK_HALF_WIDTH = 18;
const CORNER = 96;

/** Coverage of a pixel by a shape given its signed distance (antialiased over one pixel). */
const cover = (distance) => Math.max(0, Math.min(1, 0.5 - distance));

function roundedSquareDistance(x, y) {
  const h = SIZE / 2;
  const qx = Math.abs(x - h) - (h - CORNER);
  const qy = Math.abs(y - h) - (h - CORNER);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - CORNER;
}

function segmentDistance(x, y, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

const pixels = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  const row = y * (SIZE * 4 + 1);
  pixels[row] = 0;
  for (let x = 0; x < SIZE; x++) {
    const px = x + 0.5;
    const py = y + 0.5;
    let color = BACKGROUND;
    const link = cover(segmentDistance(px, py, nodeA, nodeB) - LINK_HALF_WIDTH);
    color = mix(color, LIGHT, link);
    for (const node of [nodeA, nodeB]) {
      const d = Math.hypot(px - node.x, py - node.y);
      color = mix(color, ACCENT, cover(d - node.r));
      color = mix(color, LIGHT, cover(d - node.r * 0.45));
    }
    const alpha = Math.round(255 * cover(roundedSquareDistance(px, py)));
    const o = row + 1 + x * 4;
    pixels[o] = color[0];
    pixels[o + 1] = color[1];
    pixels[o + 2] = color[2];
    pixels[o + 3] = alpha;
  }
}

function mix(a, b, t) {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8;
header[9] = 6;
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(pixels, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(path.join(root, 'resources', 'icon.png'), png);

const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">
  <rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="${hex(BACKGROUND)}"/>
  <line x1="${nodeA.x}" y1="${nodeA.y}" x2="${nodeB.x}" y2="${nodeB.y}" stroke="${hex(LIGHT)}" stroke-width="${LINK_HALF_WIDTH * 2}"/>
${[nodeA, nodeB]
  .map(
    (n) =>
      `  <circle cx="${n.x}" cy="${n.y}" r="${n.r}" fill="${hex(ACCENT)}"/>\n  <circle cx="${n.x}" cy="${n.y}" r="${n.r * 0.45}" fill="${hex(LIGHT)}"/>`,
  )
  .join('\n')}
</svg>
`;
writeFileSync(path.join(root, 'resources', 'icon.svg'), svg);
console.log('wrote resources/icon.png and resources/icon.svg');
