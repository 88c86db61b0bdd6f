/**
 * The widgets' illustrations: small inline SVGs on a 100 × 100 grid. They carry no colours of
 * their own: class `a` takes the accent, `b` the second accent, `c` the text colour, `d` the
 * surface and `o` an outline in the text colour, so one drawing serves every palette and theme.
 */
import type { ArtMotif } from '../../shared/gallery/widget-schema.js'

const ART: Record<ArtMotif, string> = {
  gift: '<rect class="a" x="16" y="42" width="68" height="46" rx="4"/><rect class="b" x="10" y="30" width="80" height="16" rx="3"/><rect class="d" x="45" y="30" width="10" height="58"/><path class="b" d="M50 30c-8-14-26-16-26-5 0 6 12 6 26 5zm0 0c8-14 26-16 26-5 0 6-12 6-26 5z"/>',
  percent: '<circle class="a" cx="50" cy="50" r="40"/><circle class="d" cx="36" cy="36" r="8"/><circle class="d" cx="64" cy="64" r="8"/><path class="d" d="M66 28l6 6-38 38-6-6z"/>',
  envelope: '<rect class="a" x="10" y="24" width="80" height="54" rx="6"/><path class="b" d="M10 30l40 28 40-28v-2a4 4 0 00-4-4H14a4 4 0 00-4 4z"/><path class="d" d="M14 74l28-22M86 74L58 52" stroke-width="3" stroke="currentColor" opacity=".35"/>',
  bell: '<path class="a" d="M50 12c-16 0-26 12-26 28v18l-8 12h68l-8-12V40c0-16-10-28-26-28z"/><circle class="b" cx="50" cy="80" r="8"/><circle class="b" cx="74" cy="22" r="9"/>',
  stars: '<path class="a" d="M30 14l6 13 14 2-10 10 2 14-12-7-12 7 2-14-10-10 14-2z"/><path class="b" d="M70 40l6 13 14 2-10 10 2 14-12-7-12 7 2-14-10-10 14-2z"/><path class="a" d="M32 66l4 8 9 1-7 6 2 9-8-4-8 4 2-9-7-6 9-1z"/>',
  chat: '<path class="a" d="M14 20h56a8 8 0 018 8v30a8 8 0 01-8 8H36l-14 12V66h-8a8 8 0 01-8-8V28a8 8 0 018-8z"/><circle class="d" cx="30" cy="43" r="5"/><circle class="d" cx="44" cy="43" r="5"/><circle class="d" cx="58" cy="43" r="5"/><path class="b" d="M62 58h22a6 6 0 016 6v16l-10-8H62a6 6 0 01-6-6v-2z"/>',
  pumpkin: '<ellipse class="a" cx="50" cy="60" rx="38" ry="30"/><ellipse class="b" cx="50" cy="60" rx="14" ry="30" opacity=".5"/><rect class="c" x="46" y="20" width="8" height="14" rx="3"/><path class="c" d="M32 54l8-8 8 8zm20 0l8-8 8 8zM34 70q16 12 32 0l-6 4-4-4-6 5-6-5-4 4z"/>',
  ghost: '<path class="d" d="M22 88V44a28 28 0 0156 0v44l-9-8-9 8-10-8-10 8-9-8z" stroke-width="4"/><path class="o" d="M22 88V44a28 28 0 0156 0v44l-9-8-9 8-10-8-10 8-9-8z" fill="none" stroke-width="4"/><ellipse class="c" cx="40" cy="44" rx="5" ry="7"/><ellipse class="c" cx="60" cy="44" rx="5" ry="7"/><ellipse class="a" cx="50" cy="62" rx="6" ry="4"/>',
  bat: '<path class="c" d="M50 40c-4-8-10-8-10-8l2 10c-10-6-22-4-32 6 8-2 14 2 16 8 4-6 10-6 14-2 2-4 6-6 10-6s8 2 10 6c4-4 10-4 14 2 2-6 8-10 16-8-10-10-22-12-32-6l2-10s-6 0-10 8z"/><circle class="a" cx="76" cy="24" r="14"/><circle class="b" cx="24" cy="74" r="4"/><circle class="b" cx="64" cy="82" r="3"/>',
  snowflake: '<g class="o" stroke-width="6" stroke-linecap="round" fill="none"><path d="M50 10v80M15 30l70 40M15 70l70-40"/><path d="M40 16l10 10 10-10M40 84l10-10 10 10"/></g><circle class="a" cx="50" cy="50" r="10"/>',
  tree: '<path class="a" d="M50 8l22 30H60l18 24H62l16 20H22l16-20H22l18-24H28z"/><rect class="c" x="44" y="82" width="12" height="12"/><circle class="b" cx="40" cy="50" r="4"/><circle class="b" cx="60" cy="66" r="4"/><circle class="b" cx="50" cy="32" r="4"/>',
  heart: '<path class="a" d="M50 86S12 62 12 36a20 20 0 0138-8 20 20 0 0138 8c0 26-38 50-38 50z"/><path class="b" d="M74 14a10 10 0 0118 6c0 12-18 22-18 22s-18-10-18-22a10 10 0 0118-6z"/>',
  egg: '<path class="a" d="M50 8c18 0 34 30 34 52a34 34 0 01-68 0C16 38 32 8 50 8z"/><path class="b" d="M17 56l11-8 11 8 11-8 11 8 11-8 11 8v8l-11-8-11 8-11-8-11 8-11-8-11 8z"/><circle class="d" cx="36" cy="34" r="4"/><circle class="d" cx="62" cy="78" r="4"/>',
  leaf: '<path class="a" d="M84 14C40 14 16 36 16 66c0 8 2 14 6 20 4-22 18-38 40-48-18 14-28 30-32 52 36 2 54-30 54-76z"/>',
  globe: '<circle class="a" cx="50" cy="50" r="38"/><path class="b" d="M30 24c8 4 6 12 14 14s8 10 2 14-14 4-12 14-6 8-10 4c-6-6-10-16-10-20 0-10 6-20 16-26zm40 8c6 2 12 10 14 18-6 0-8 4-12 2s-8-6-4-10 0-8 2-10z"/><circle class="o" cx="50" cy="50" r="38" fill="none" stroke-width="3"/>',
  flower: '<circle class="a" cx="50" cy="28" r="16"/><circle class="a" cx="72" cy="44" r="16"/><circle class="a" cx="64" cy="70" r="16"/><circle class="a" cx="36" cy="70" r="16"/><circle class="a" cx="28" cy="44" r="16"/><circle class="b" cx="50" cy="50" r="13"/>',
  bag: '<path class="a" d="M18 34h64l-6 56H24z"/><path class="o" d="M36 40V28a14 14 0 0128 0v12" fill="none" stroke-width="5"/><rect class="b" x="34" y="54" width="32" height="8" rx="4"/>',
  tag: '<path class="a" d="M14 46V16a4 4 0 014-4h30l40 40-36 36z"/><circle class="d" cx="30" cy="28" r="7"/><path class="b" d="M46 50l8-8 16 16-8 8z"/>',
  truck: '<rect class="a" x="6" y="28" width="56" height="38" rx="4"/><path class="b" d="M62 40h18l14 14v12H62z"/><circle class="c" cx="24" cy="72" r="9"/><circle class="c" cx="76" cy="72" r="9"/><circle class="d" cx="24" cy="72" r="3"/><circle class="d" cx="76" cy="72" r="3"/>',
  clock: '<circle class="a" cx="50" cy="52" r="38"/><circle class="d" cx="50" cy="52" r="30"/><path class="c" d="M47 28h6v24l14 10-4 5-16-12z"/><rect class="b" x="40" y="6" width="20" height="8" rx="3"/>',
  bolt: '<path class="a" d="M58 6L18 58h26l-8 36 46-56H54z"/><path class="b" d="M58 6l-8 32h8z" opacity=".6"/>',
  cake: '<rect class="a" x="16" y="50" width="68" height="38" rx="6"/><path class="b" d="M16 62c8 6 14-6 22 0s14-6 22 0 14-6 24 0v-6H16z"/><rect class="c" x="30" y="32" width="5" height="18"/><rect class="c" x="47" y="32" width="5" height="18"/><rect class="c" x="64" y="32" width="5" height="18"/><path class="b" d="M32 22c4 4 2 8 0 8s-4-4 0-8zm17 0c4 4 2 8 0 8s-4-4 0-8zm17 0c4 4 2 8 0 8s-4-4 0-8z"/>',
  cup: '<path class="a" d="M16 36h54l-6 50H22z"/><path class="o" d="M70 44h6a10 10 0 010 20h-8" fill="none" stroke-width="5"/><path class="b" d="M30 8c-4 8 6 10 2 20m14-20c-4 8 6 10 2 20m14-20c-4 8 6 10 2 20" fill="none" stroke="currentColor" stroke-width="0"/><rect class="b" x="26" y="50" width="34" height="8" rx="4"/>',
  shirt: '<path class="a" d="M34 10l16 10 16-10 24 14-10 20-10-6v52H30V38l-10 6-10-20z"/><path class="b" d="M40 10q10 12 20 0z"/><rect class="d" x="44" y="48" width="12" height="12" rx="2"/>',
  shoe: '<path class="a" d="M8 56c10 0 18-4 24-16 10 6 20 8 30 10 14 2 28 8 30 22v8H8z"/><rect class="b" x="8" y="74" width="84" height="10" rx="3"/><path class="d" d="M36 46l6 4m2-10l6 4m2-8l6 4" stroke="currentColor" stroke-width="0"/><circle class="d" cx="42" cy="52" r="3"/><circle class="d" cx="52" cy="54" r="3"/>',
  bottle: '<rect class="a" x="32" y="34" width="36" height="58" rx="10"/><rect class="c" x="42" y="8" width="16" height="14" rx="3"/><path class="a" d="M40 22h20v14H40z"/><rect class="b" x="32" y="50" width="36" height="22"/>',
  idcard: '<rect class="a" x="8" y="20" width="84" height="60" rx="8"/><circle class="d" cx="32" cy="46" r="11"/><path class="d" d="M16 72a16 12 0 0132 0z"/><rect class="b" x="56" y="36" width="28" height="7" rx="3"/><rect class="d" x="56" y="50" width="22" height="6" rx="3"/><rect class="d" x="56" y="62" width="26" height="6" rx="3"/>',
  sliders: '<rect class="c" x="14" y="22" width="72" height="6" rx="3"/><rect class="c" x="14" y="47" width="72" height="6" rx="3"/><rect class="c" x="14" y="72" width="72" height="6" rx="3"/><circle class="a" cx="34" cy="25" r="10"/><circle class="b" cx="66" cy="50" r="10"/><circle class="a" cx="46" cy="75" r="10"/>',
  megaphone: '<path class="a" d="M18 40l50-22v64L18 60z"/><rect class="b" x="8" y="38" width="14" height="24" rx="4"/><path class="c" d="M26 60l8 26h10l-6-24z"/><path class="o" d="M78 36q8 14 0 28" fill="none" stroke-width="5"/>',
  sparkle: '<path class="a" d="M44 8c4 22 12 30 34 34-22 4-30 12-34 34-4-22-12-30-34-34 22-4 30-12 34-34z"/><path class="b" d="M78 60c2 10 6 14 16 16-10 2-14 6-16 16-2-10-6-14-16-16 10-2 14-6 16-16z"/>',
  mountain: '<circle class="b" cx="74" cy="26" r="12"/><path class="a" d="M4 88l30-50 16 24 12-16 34 42z"/><path class="d" d="M34 38l8 14-8-4-6 6z"/>',
  sun: '<circle class="a" cx="50" cy="50" r="20"/><g class="o" stroke-width="6" stroke-linecap="round"><path d="M50 8v12M50 80v12M8 50h12M80 50h12M20 20l9 9M71 71l9 9M20 80l9-9M71 29l9-9"/></g>',
  wave: '<path class="a" d="M0 60c16-20 34-20 50 0s34 20 50 0v40H0z"/><path class="b" d="M0 74c16-14 34-14 50 0s34 14 50 0v26H0z"/><circle class="a" cx="72" cy="26" r="12"/>',
  book: '<path class="a" d="M8 22c14-6 28-6 42 4v62c-14-10-28-10-42-4z"/><path class="b" d="M92 22c-14-6-28-6-42 4v62c14-10 28-10 42-4z"/>',
  paw: '<ellipse class="a" cx="50" cy="66" rx="22" ry="18"/><ellipse class="a" cx="22" cy="42" rx="9" ry="12"/><ellipse class="a" cx="40" cy="24" rx="9" ry="12"/><ellipse class="a" cx="60" cy="24" rx="9" ry="12"/><ellipse class="a" cx="78" cy="42" rx="9" ry="12"/>',
  plant: '<path class="b" d="M28 62h44l-6 30H34z"/><path class="a" d="M50 62V30c-4-16-22-20-30-14 4 12 16 18 30 16m0 4c4-16 20-24 32-18-4 14-18 20-32 18"/>',
  ticket: '<path class="a" d="M8 28h84v14a8 8 0 000 16v14H8V58a8 8 0 000-16z"/><path class="d" d="M64 30v40" stroke-dasharray="4 4" stroke="currentColor" stroke-width="0"/><rect class="d" x="62" y="32" width="4" height="36"/><rect class="b" x="18" y="40" width="34" height="8" rx="3"/><rect class="b" x="18" y="54" width="22" height="6" rx="3"/>',
  lock: '<rect class="a" x="20" y="42" width="60" height="48" rx="8"/><path class="o" d="M32 42V30a18 18 0 0136 0v12" fill="none" stroke-width="7"/><circle class="d" cx="50" cy="62" r="7"/><rect class="d" x="47" y="64" width="6" height="14" rx="2"/>',
}

/** The drawing of a motif as an SVG element; decorative, so hidden from assistive technology. */
export function artSvg(motif: ArtMotif, className = 'plw-svg'): string {
  return `<svg class="${className}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${ART[motif]}</svg>`
}
