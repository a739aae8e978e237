#!/usr/bin/env node
// Draws Baton's icons in code and writes them as PNGs (zlib only; nothing is downloaded):
// the app icon (a rounded square with a relay baton across it) and the tray icons (the baton
// alone: black + alpha "Template" images for the macOS menu bar, a dark-on-light PNG elsewhere).
// Run `npx node build/make-icons.mjs`; the PNGs are committed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'icons');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes RGBA pixels (Uint8Array, width*height*4) as a PNG. */
export function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distance functions in unit coordinates (0..1), negative inside.
function roundedRect(x, y, inset, radius) {
  const qx = Math.abs(x - 0.5) - (0.5 - inset - radius);
  const qy = Math.abs(y - 0.5) - (0.5 - inset - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}
function capsule(x, y, ax, ay, bx, by, r) {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * t, py - dy * t) - r;
}
/** The baton: a diagonal capsule with a band near each end. Returns [body, bands]. */
function baton(x, y, scale) {
  const c = (v) => 0.5 + (v - 0.5) * scale;
  const body = capsule(x, y, c(0.22), c(0.78), c(0.78), c(0.22), 0.11 * scale);
  // Bands across the baton: lines x − y = const, perpendicular to its axis.
  const band1 = Math.abs(x - y - (c(0.34) - c(0.66))) / Math.SQRT2 - 0.03 * scale;
  const band2 = Math.abs(x - y - (c(0.66) - c(0.34))) / Math.SQRT2 - 0.03 * scale;
  return [body, Math.max(body, Math.min(band1, band2))];
}

/** Renders `shade(x, y) → [r, g, b, a]` with 4×4 supersampling. */
function render(size, shade) {
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = shade((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          r += cr * ca; g += cg * ca; b += cb * ca; a += ca;
        }
      }
      const i = (py * size + px) * 4;
      rgba[i] = a ? Math.round(r / a) : 0;
      rgba[i + 1] = a ? Math.round(g / a) : 0;
      rgba[i + 2] = a ? Math.round(b / a) : 0;
      rgba[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return rgba;
}

function appIcon(x, y) {
  if (roundedRect(x, y, 0.06, 0.2) > 0) return [0, 0, 0, 0];
  const [body, band] = baton(x, y, 1);
  if (band < 0) return [30, 41, 59, 1];
  if (body < 0) return [255, 255, 255, 1];
  // Indigo to teal, top-left to bottom-right.
  const t = (x + y) / 2;
  return [Math.round(79 + (13 - 79) * t), Math.round(70 + (148 - 70) * t), Math.round(229 + (136 - 229) * t), 1];
}

function trayGlyph(color) {
  return (x, y) => {
    const [body, band] = baton(x, y, 1.15);
    // Bands are cut out so the glyph reads at 16 px.
    return body < 0 && band >= 0 ? [...color, 1] : [0, 0, 0, 0];
  };
}

const outputs = [
  ['icon.png', 1024, appIcon],
  ['512x512.png', 512, appIcon],
  ['256x256.png', 256, appIcon],
  ['trayTemplate.png', 18, trayGlyph([0, 0, 0])],
  ['trayTemplate@2x.png', 36, trayGlyph([0, 0, 0])],
  ['tray.png', 32, trayGlyph([40, 40, 48])],
];

fs.mkdirSync(outDir, { recursive: true });
for (const [name, size, shade] of outputs) {
  fs.writeFileSync(path.join(outDir, name), encodePng(size, size, render(size, shade)));
  process.stdout.write(`build/icons/${name} ${size}x${size}\n`);
}
