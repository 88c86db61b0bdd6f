/**
 * Generates the storefront mock-ups used by the home page's store-examples carousel.
 *
 *   npx tsx scripts/templates/generate-store-art.ts          (--out <folder> writes there instead)
 *
 * Reads data/home.json and writes public/stores/{slug}.svg for every store: a browser
 * window with the shop's header, product tiles in a palette derived from the store's first
 * category, and a Poplift widget overlay (modal, slide-in, bar, panel or sidebar) with a
 * headline and a button. Output is deterministic (no randomness, no dates), self-contained
 * (no external references, no scripts) and kept under 3 KB per file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputFolder } from './output.js';

type Overlay = 'modal' | 'slidein' | 'bar' | 'panel' | 'sidebar';

interface Store {
  title: string;
  url: string;
  name: string;
  categories: string[];
  img: string;
  width: number;
  height: number;
}

interface Palette {
  bg: string;
  header: string;
  tiles: [string, string, string];
  accent: string;
}

interface WidgetSpec {
  overlay: Overlay;
  headline: string;
  button: string;
}

const W = 640;
const H = 400;
const MAX_BYTES = 3000;

const PALETTES: Record<string, Palette> = {
  clothing: { bg: '#f7f3ee', header: '#1f2a44', tiles: ['#d9c7b1', '#b8c4d6', '#e8d9cf'], accent: '#e4572e' },
  jewelry: { bg: '#fbf8f3', header: '#2d2a26', tiles: ['#e9dcc4', '#d4c2a0', '#f1e7d8'], accent: '#b08d57' },
  video: { bg: '#1a1c26', header: '#0d0e14', tiles: ['#2c3350', '#41306b', '#1f4d5c'], accent: '#ff4d6d' },
  art: { bg: '#fdfbf7', header: '#ffffff', tiles: ['#f2c14e', '#5b8e7d', '#e07a5f'], accent: '#3d405b' },
  food: { bg: '#fbf6ec', header: '#3f5e3a', tiles: ['#e9c46a', '#f4a261', '#cfd8a3'], accent: '#c8553d' },
  home: { bg: '#f4f1ec', header: '#4a5d4f', tiles: ['#c9b79c', '#a3b18a', '#e3d5c1'], accent: '#6b8f71' },
  shoes: { bg: '#f2f2f2', header: '#111111', tiles: ['#d8d8d8', '#ffcc00', '#9fb7c9'], accent: '#ff5a1f' },
  minimal: { bg: '#ffffff', header: '#ffffff', tiles: ['#eeeeee', '#e2e2e2', '#f4f4f4'], accent: '#111111' },
  sports: { bg: '#eef4f7', header: '#0b3d5c', tiles: ['#8ecae6', '#219ebc', '#ffb703'], accent: '#fb8500' },
  kids: { bg: '#fff8ef', header: '#ff9f80', tiles: ['#ffd6a5', '#caffbf', '#9bf6ff'], accent: '#7b61ff' },
  beauty: { bg: '#fdf1f1', header: '#7a3e48', tiles: ['#f6c6c6', '#ebd4cb', '#f3e1dd'], accent: '#c9576d' },
  product: { bg: '#f5f7fa', header: '#1b1f29', tiles: ['#dfe6ee', '#c4d0de', '#ebeff4'], accent: '#2f6bff' },
  pets: { bg: '#fff9f0', header: '#5a3e2b', tiles: ['#f2d0a4', '#b5d99c', '#f6e3c5'], accent: '#e76f51' },
  bags: { bg: '#f6f1ea', header: '#3b2f2a', tiles: ['#c8a27c', '#8c6a4f', '#e2cfb8'], accent: '#a0522d' },
};

/** The widget each example shop runs; stores not listed get one derived from their slug. */
const WIDGETS: Record<string, WidgetSpec> = {
  'marlow-thread': { overlay: 'modal', headline: 'Spin to win 20% off', button: 'Spin now' },
  'northfold-outfitters': { overlay: 'bar', headline: "You're $12 from free shipping", button: 'Shop' },
  'lumen-and-vale': { overlay: 'modal', headline: 'Get early access', button: 'Join the list' },
  'ferro-atelier': { overlay: 'slidein', headline: 'Free gift wrap today', button: 'Add a note' },
  'reelhouse-classes': { overlay: 'slidein', headline: 'New lesson every Friday', button: 'Subscribe' },
  'frame-forty': { overlay: 'bar', headline: 'Course opens in 02:14:36', button: 'Notify me' },
  'gallery-nine-prints': { overlay: 'modal', headline: 'Next drop: 50 prints', button: 'Join waitlist' },
  'inkwell-and-fox': { overlay: 'sidebar', headline: 'Request a commission', button: 'Send request' },
  'saltbush-pantry': { overlay: 'modal', headline: '15% off your first box', button: 'Get my code' },
  'cellar-door-provisions': { overlay: 'modal', headline: 'Are you 21 or older?', button: 'Yes, enter' },
  'juniper-and-oak': { overlay: 'panel', headline: "What's your room style?", button: 'Next' },
  'hearth-row': { overlay: 'modal', headline: 'Wait! Take 10% with you', button: 'Claim offer' },
  'stride-lab': { overlay: 'sidebar', headline: 'Find your size', button: 'Show my size' },
  'cobble-and-lace': { overlay: 'slidein', headline: 'Back in stock alerts', button: 'Notify me' },
  'oda-studio': { overlay: 'panel', headline: 'Letters from the studio', button: 'Subscribe' },
  'plain-supply-co': { overlay: 'bar', headline: 'Weekend only: 2 for $30', button: 'Shop' },
  'summit-pace': { overlay: 'slidein', headline: 'Free 8-week plan', button: 'Send it' },
  'tidewater-surf': { overlay: 'slidein', headline: 'Ask us on WhatsApp', button: 'Start chat' },
  'little-fern': { overlay: 'modal', headline: 'Join the birthday club', button: 'Join' },
  'bramble-and-bear': { overlay: 'panel', headline: 'How old is your little one?', button: 'Next' },
  'glowwell-skin': { overlay: 'sidebar', headline: 'Find your routine', button: 'Start quiz' },
  'velvet-bloom': { overlay: 'modal', headline: 'Scratch for a free sample', button: 'Reveal' },
  aerobrew: { overlay: 'modal', headline: 'Be first in line', button: 'Reserve' },
  'kinetic-desk': { overlay: 'modal', headline: 'Welcome: 10% off', button: 'Unlock' },
  'wag-and-whisker': { overlay: 'slidein', headline: 'Treats on their birthday', button: 'Sign up' },
  'good-boy-provisions': { overlay: 'bar', headline: 'Time to reorder? Save 10%', button: 'Reorder' },
  'carryall-co': { overlay: 'panel', headline: 'We use cookies', button: 'Accept' },
  'satchel-and-pine': { overlay: 'bar', headline: 'Limited run: 200 bags', button: 'Shop now' },
};

const OVERLAYS: Overlay[] = ['modal', 'slidein', 'bar', 'panel', 'sidebar'];
const FONT = 'Helvetica,Arial,sans-serif';
const CARD = '#ffffff';
const INK = '#1c1c1e';

/** Small stable string hash (FNV-1a) so variations are deterministic. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function isLight(hex: string): boolean {
  const n = parseInt(hex.slice(1), 16);
  const r = (n >> 16) & 255;
  const g = (n >> 8) & 255;
  const b = n & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 160;
}

const rect = (x: number, y: number, w: number, h: number, r: number, fill?: string, extra = ''): string =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}"${r ? ` rx="${r}"` : ''}${fill ? ` fill="${fill}"` : ''}${extra}/>`;

const text = (x: number, y: number, size: number, fill: string, s: string, anchor = '', weight = '700'): string =>
  `<text x="${x}" y="${y}" font-size="${size}"${weight === '700' ? '' : ` font-weight="${weight}"`} fill="${fill}"${anchor ? ` text-anchor="${anchor}"` : ''}>${esc(s)}</text>`;

/** The dimmed page behind modals and sidebars, following the frame's rounded bottom corners. */
const DIM = '<path d="M0 26h640v362a12 12 0 0 1-12 12H12a12 12 0 0 1-12-12z" fill="#000" opacity=".45"/>';

function button(x: number, y: number, w: number, h: number, label: string, accent: string, size = 13): string {
  const fg = isLight(accent) ? INK : '#fff';
  return rect(x, y, w, h, 6, accent) + text(x + w / 2, y + h / 2 + size * 0.36, size, fg, label, 'middle');
}

function shadowCard(x: number, y: number, w: number, h: number, r: number): string {
  return rect(x + 2, y + 4, w, h, r, '#000', ' opacity=".18"') + rect(x, y, w, h, r, CARD);
}

function overlay(spec: WidgetSpec, p: Palette): string {
  const a = p.accent;
  switch (spec.overlay) {
    case 'modal':
      return (
        DIM +
        rect(180, 92, 280, 216, 14, CARD) +
        text(440, 116, 16, '#999', '×', 'middle', '400') +
        text(320, 146, 18, INK, spec.headline, 'middle') +
        rect(240, 160, 160, 6, 3, '#d5d5da') +
        rect(212, 188, 216, 32, 6, CARD, ' stroke="#c9c9cf"') +
        rect(224, 201, 90, 6, 3, '#e2e2e6') +
        button(212, 230, 216, 34, spec.button, a) +
        rect(268, 282, 104, 5, 2, '#e2e2e6')
      );
    case 'slidein':
      return (
        shadowCard(388, 230, 232, 150, 12) +
        text(404, 260, 14, INK, spec.headline) +
        rect(404, 272, 150, 5, 2, '#d5d5da') +
        rect(404, 284, 110, 5, 2, '#d5d5da') +
        rect(404, 300, 200, 28, 6, CARD, ' stroke="#c9c9cf"') +
        button(404, 338, 200, 28, spec.button, a, 12)
      );
    case 'bar': {
      const fg = isLight(a) ? INK : '#fff';
      return (
        rect(0, 66, W, 40, 0, a) +
        text(240, 91, 15, fg, spec.headline, 'middle') +
        rect(470, 75, 96, 22, 11, fg) +
        text(518, 90, 12, a, spec.button, 'middle')
      );
    }
    case 'panel':
      return (
        shadowCard(24, 262, 592, 122, 12) +
        text(48, 296, 17, INK, spec.headline) +
        rect(48, 312, 96, 28, 14, CARD, ' stroke="#c9c9cf"') +
        rect(154, 312, 96, 28, 14, p.tiles[0]) +
        rect(260, 312, 96, 28, 14, CARD, ' stroke="#c9c9cf"') +
        rect(48, 354, 220, 5, 2, '#e2e2e6') +
        button(470, 312, 122, 32, spec.button, a)
      );
    case 'sidebar':
      return (
        DIM +
        `<path d="M420 26h220v362a12 12 0 0 1-12 12H420z" fill="${CARD}"/>` +
        text(440, 70, 16, INK, spec.headline) +
        rect(440, 86, 160, 5, 2, '#d5d5da') +
        rect(440, 98, 120, 5, 2, '#d5d5da') +
        rect(440, 122, 180, 30, 6, CARD, ' stroke="#c9c9cf"') +
        rect(440, 162, 180, 30, 6, CARD, ' stroke="#c9c9cf"') +
        rect(440, 202, 180, 70, 6, CARD, ' stroke="#c9c9cf"') +
        button(440, 286, 180, 34, spec.button, a)
      );
  }
}

function page(p: Palette, variant: number): string {
  const dark = !isLight(p.bg);
  const line = dark ? '#3a3d4d' : '#d9d6d0';
  const [t0, t1, t2] = p.tiles;
  let out = '';
  if (variant === 0) {
    // Hero banner above a row of four products.
    out += rect(24, 80, 592, 112, 10, t0);
    out += rect(48, 112, 180, 12, 6, dark ? '#e8e8f0' : '#ffffff', ' opacity=".85"');
    out += rect(48, 134, 120, 8, 4, dark ? '#e8e8f0' : '#ffffff', ' opacity=".6"');
    out += rect(48, 156, 84, 22, 11, p.accent);
    const fills = [t1, t2, t1, t2];
    fills.forEach((f, i) => {
      const x = 24 + i * 151;
      out += rect(x, 208, 139, 124, 10, f) + rect(x, 342, 96, 6, 3, line) + rect(x, 356, 56, 6, 3, line);
    });
  } else {
    // Two rows of product tiles.
    const fills = [t0, t1, t2, t1, t2, t0, t0, t2];
    fills.forEach((f, i) => {
      const x = 24 + (i % 4) * 151;
      const y = i < 4 ? 80 : 238;
      out += rect(x, y, 139, 118, 10, f) + rect(x, y + 126, 90, 6, 3, line);
    });
  }
  return out;
}

function svgFor(store: Store, slug: string): string {
  const p = PALETTES[store.categories[0] ?? 'minimal'] ?? PALETTES.minimal!;
  const h = hash(slug);
  const spec: WidgetSpec = WIDGETS[slug] ?? {
    overlay: OVERLAYS[h % OVERLAYS.length] ?? 'modal',
    headline: store.title.length > 24 ? `${store.title.slice(0, 23)}…` : store.title,
    button: 'Learn more',
  };
  const chrome = isLight(p.bg) ? '#e4e4ea' : '#2a2c38';
  const headFg = isLight(p.header) ? INK : '#ffffff';
  const headLine = isLight(p.header) ? '#cfcfd6' : 'rgba(255,255,255,.45)';
  const label = `${store.name}: ${store.title}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" font-family="${FONT}" font-weight="700">` +
    `<title>${esc(label)}</title>` +
    rect(0, 0, W, H, 12, p.bg) +
    `<path d="M0 26V12A12 12 0 0 1 12 0h616a12 12 0 0 1 12 12v14z" fill="${chrome}"/>` +
    `<g fill="#c5c5cc"><circle cx="16" cy="13" r="4"/><circle cx="30" cy="13" r="4"/><circle cx="44" cy="13" r="4"/></g>` +
    rect(160, 6, 320, 14, 7, isLight(chrome) ? '#ffffff' : '#3a3d4d') +
    rect(0, 26, W, 40, 0, p.header) +
    (isLight(p.header) ? rect(0, 65, W, 1, 0, '#e6e6ea') : '') +
    text(24, 52, 16, headFg, store.name) +
    `<g fill="${headLine}">${rect(400, 43, 44, 6, 3)}${rect(456, 43, 44, 6, 3)}${rect(512, 43, 44, 6, 3)}</g>` +
    `<circle cx="600" cy="46" r="8" fill="none" stroke="${headFg}" stroke-width="2"/>` +
    page(p, h % 2) +
    overlay(spec, p) +
    '</svg>\n'
  );
}

function main(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const home = JSON.parse(readFileSync(join(root, 'data', 'home.json'), 'utf8')) as {
    storeExamples: { stores: Store[] };
  };
  const outDir = outputFolder(join(root, 'public', 'stores'));
  mkdirSync(outDir, { recursive: true });
  let tooBig = 0;
  for (const store of home.storeExamples.stores) {
    const slug = /^\/stores\/([a-z0-9-]+)\.svg$/.exec(store.img)?.[1];
    if (!slug) throw new Error(`Unexpected img path for ${store.name}: ${store.img}`);
    const svg = svgFor(store, slug);
    const bytes = Buffer.byteLength(svg);
    if (bytes > MAX_BYTES) {
      tooBig++;
      console.warn(`${slug}.svg is ${bytes} bytes (limit ${MAX_BYTES})`);
    }
    writeFileSync(join(outDir, `${slug}.svg`), svg);
  }
  console.log(`Wrote ${home.storeExamples.stores.length} store images to ${relative(root, outDir) || '.'}/`);
  if (tooBig) process.exitCode = 1;
}

main();
