/**
 * Draws a widget template as self-contained HTML and CSS: no external files, no inline style
 * attributes (so a page can allow the one stylesheet by its hash), every text escaped. The
 * behaviour (fields checked, success state, close, launcher, countdown, copy) lives in
 * server/dashboard/static/widget-preview.ts and works on the `data-plw-*` hooks written here.
 *
 *   const { html, css } = renderWidget(template, { theme: 'dark' })
 */
import type { Palette, WidgetField, WidgetStyle, WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { html, SafeHtml } from '../dashboard/html.js'
import { artSvg } from './widget-art.js'

export type WidgetTheme = 'light' | 'dark'

export interface RenderOptions {
  /** Dark draws the template's dark palette; only templates with one have it. */
  theme?: WidgetTheme
}

export interface RenderedWidget {
  html: string
  css: string
  /** The theme drawn: 'dark' only when asked for and offered. */
  theme: WidgetTheme
}

const FONTS = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  serif: 'Georgia, "Iowan Old Style", "Times New Roman", serif',
  mono: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
  rounded: 'ui-rounded, "Nunito", "Trebuchet MS", "Verdana", sans-serif',
  condensed: '"Arial Narrow", "Roboto Condensed", "Helvetica Neue", Arial, sans-serif',
  slab: '"Rockwell", "Roboto Slab", "Courier New", Georgia, serif',
} as const

const vars = (palette: Palette) =>
  `--plw-bg:${palette.bg};--plw-fg:${palette.fg};--plw-muted:${palette.muted};--plw-accent:${palette.accent};--plw-accent2:${palette.accent2};--plw-btn:${palette.button};--plw-btn-fg:${palette.buttonText};--plw-field:${palette.field};--plw-field-fg:${palette.fieldText};--plw-placeholder:${palette.placeholder};`

/**
 * The decorations drawn over or beside the surface, as the styles below draw them: text must
 * stay readable where they show (scripts/templates/widget-contrast.ts holds the palettes to that).
 * A pattern is painted in these palette colours at PATTERN_OPACITY over the whole box; the art
 * panel (art left, right or top) is the surface tinted with the accent; art drawn in the
 * background shows its colours at ART_BACKGROUND_OPACITY under the text.
 */
export const PATTERN_OPACITY = 0.13
export const PATTERN_COLOURS: Record<WidgetStyle['pattern'], ('fg' | 'accent' | 'accent2')[]> = {
  none: [],
  dots: ['fg'],
  stripes: ['accent'],
  grid: ['fg'],
  waves: ['accent'],
  diagonal: ['fg'],
  confetti: ['accent', 'accent2', 'fg'],
  rays: ['accent'],
}
export const ART_PANEL_TINT = 0.16
export const ART_BACKGROUND_OPACITY = 0.22
/** The close button's × is drawn in the text colour at this opacity (full on hover and focus). */
export const CLOSE_OPACITY = 0.75
/** Countdown cells are tinted with the text colour. */
export const COUNTDOWN_TINT = 0.1
/** Error messages sit on a white pill of their own, so they read on any surface. */
export const ERROR_COLOURS = { text: '#b42318', background: '#ffffff', border: '#e5484d' } as const

/**
 * Styles every widget shares; per-template colours and sizes come as custom properties. Focus
 * rings are drawn in the text colour on the surface, or inside filled buttons in their text
 * colour, so they contrast as the text does. The close button sits in the top corner: where the
 * text would start beside it (no art panel above or beside it there), the text starts below it.
 */
export const WIDGET_BASE_CSS = `
.plw{font-family:var(--plw-font);color:var(--plw-fg);line-height:1.4;font-size:16px;-webkit-font-smoothing:antialiased}
.plw *,.plw *::before,.plw *::after{box-sizing:border-box}
.plw[hidden],.plw [hidden]{display:none!important}
.plw-overlay{position:fixed;inset:0;background:rgba(9,11,18,.58);z-index:2147483000;animation:plw-fade .35s ease both}
.plw-box{position:relative;background:var(--plw-bg);color:var(--plw-fg);border-radius:var(--plw-radius);width:min(var(--plw-w),calc(100vw - 32px));overflow:hidden;z-index:2147483001;display:grid;grid-template-columns:1fr;animation:var(--plw-anim) .55s cubic-bezier(.2,.9,.3,1.1) both;animation-delay:var(--plw-delay,0s)}
.plw--closing .plw-box,.plw--closing .plw-overlay{animation:plw-out .28s ease-in both}
.plw-box::before{content:"";position:absolute;inset:0;pointer-events:none;opacity:${PATTERN_OPACITY};background-image:var(--plw-pattern,none);background-size:var(--plw-pattern-size,auto)}
.plw-inner{position:relative;padding:28px;display:flex;flex-direction:column;gap:12px;text-align:var(--plw-align)}
.plw-main{display:flex;flex-direction:column;gap:12px;width:100%}
.plw:not(.plw--bar):not(.plw--inline):is(.plw--art-none,.plw--art-left,.plw--art-background) .plw-inner{padding-top:44px}
.plw--center .plw-inner,.plw--center .plw-main{align-items:center}
.plw-close{position:absolute;top:8px;right:8px;z-index:3;width:36px;height:36px;border:0;border-radius:50%;background:transparent;color:var(--plw-fg);font-size:24px;line-height:1;cursor:pointer;opacity:${CLOSE_OPACITY}}
.plw-close:hover,.plw-close:focus-visible{opacity:1;background:color-mix(in srgb,var(--plw-fg) 12%,transparent)}
.plw-close:focus-visible{outline:2px solid var(--plw-fg);outline-offset:-2px}
.plw-kicker{margin:0;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.12em;color:var(--plw-accent)}
.plw-title{margin:0;font-size:26px;line-height:1.15;font-weight:800;letter-spacing:-.01em;overflow-wrap:anywhere}
.plw--h-light .plw-title{font-weight:300;font-size:30px}
.plw--h-caps .plw-title{text-transform:uppercase;letter-spacing:.06em;font-size:22px}
.plw--h-italic .plw-title{font-style:italic;font-weight:600}
.plw--h-huge .plw-title{font-size:34px;font-weight:900;letter-spacing:-.03em}
.plw-text{margin:0;color:var(--plw-muted);font-size:15px}
.plw-note{margin:0;color:var(--plw-muted);font-size:12px}
.plw-form{display:flex;flex-direction:column;gap:10px;width:100%;text-align:left}
.plw-field{display:flex;flex-direction:column;gap:4px;border:0;margin:0;padding:0;min-width:0}
.plw-label{font-size:13px;font-weight:600;padding:0}
.plw-input{width:100%;font:inherit;font-size:15px;color:var(--plw-field-fg);background:var(--plw-field);border:1.5px solid var(--plw-muted);border-radius:calc(var(--plw-radius) / 2);padding:11px 12px;min-height:44px}
.plw-input::placeholder{color:var(--plw-placeholder);opacity:1}
.plw-input option{color:var(--plw-field-fg);background:var(--plw-field)}
.plw-input:focus{outline:2px solid var(--plw-fg);outline-offset:2px}
textarea.plw-input{min-height:84px;resize:vertical}
.plw-input[aria-invalid=true]{border-color:${ERROR_COLOURS.border}}
.plw-error{font-size:12.5px;font-weight:600;color:${ERROR_COLOURS.text};background:${ERROR_COLOURS.background};border-radius:4px;padding:1px 6px;align-self:flex-start}
.plw-options{display:flex;flex-wrap:wrap;gap:6px}
.plw-option{position:relative}
.plw-option input,.plw-stars input{position:absolute;opacity:0;width:1px;height:1px}
.plw-option span{display:inline-block;padding:8px 12px;border-radius:999px;border:1.5px solid var(--plw-muted);font-size:14px;cursor:pointer}
.plw-option input:checked+span{background:var(--plw-btn);border-color:var(--plw-btn);color:var(--plw-btn-fg)}
.plw-option input:focus-visible+span,.plw-stars input:focus-visible+label{outline:2px solid var(--plw-fg);outline-offset:2px}
.plw-stars{display:flex;flex-direction:row-reverse;justify-content:flex-end;gap:2px}
.plw-stars label{font-size:30px;line-height:1;cursor:pointer;color:transparent;-webkit-text-stroke:1.5px var(--plw-muted)}
.plw-stars label:hover,.plw-stars label:hover~label,.plw-stars input:checked~label{color:var(--plw-accent);-webkit-text-stroke-color:var(--plw-accent)}
.plw-check{display:flex;gap:8px;align-items:flex-start;font-size:13px}
.plw-check input{width:18px;height:18px;margin:1px 0 0;accent-color:var(--plw-accent)}
.plw-button{font:inherit;font-weight:700;font-size:16px;border:0;cursor:pointer;background:var(--plw-btn);color:var(--plw-btn-fg);border-radius:var(--plw-btn-radius);padding:13px 20px;min-height:46px;width:100%;transition:transform .15s,filter .15s}
.plw-button:hover{filter:brightness(1.08);transform:translateY(-1px)}
.plw-button:focus-visible,.plw-launcher:focus-visible,.plw-copy:focus-visible{outline:3px solid var(--plw-btn-fg);outline-offset:-6px}
.plw-secondary:focus-visible{outline:2px solid var(--plw-fg);outline-offset:2px}
.plw-box:focus{outline:none}
.plw-secondary{font:inherit;font-size:14px;background:none;border:0;color:var(--plw-muted);text-decoration:underline;cursor:pointer;padding:6px}
.plw-success{display:flex;flex-direction:column;gap:10px;align-items:center;text-align:center;width:100%}
.plw-success .plw-check-mark{width:52px;height:52px;border-radius:50%;background:var(--plw-btn);color:var(--plw-btn-fg);display:grid;place-items:center;font-size:28px;font-weight:900}
.plw-code{display:flex;gap:8px;align-items:center;border:2px dashed var(--plw-accent);border-radius:calc(var(--plw-radius) / 2);padding:6px 6px 6px 14px}
.plw-code code{font:700 20px/1 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em}
.plw-copy{font:inherit;font-size:13px;font-weight:700;border:0;border-radius:6px;padding:8px 12px;background:var(--plw-btn);color:var(--plw-btn-fg);cursor:pointer}
.plw-countdown{display:flex;gap:6px;justify-content:center;font:700 22px/1 ui-monospace,Menlo,Consolas,monospace}
.plw-countdown span{background:color-mix(in srgb,var(--plw-fg) ${Math.round(COUNTDOWN_TINT * 100)}%,transparent);border-radius:6px;padding:6px 8px;min-width:2.3em;text-align:center}
.plw-art{display:grid;place-items:center;background:color-mix(in srgb,var(--plw-accent) ${Math.round(ART_PANEL_TINT * 100)}%,var(--plw-bg))}
.plw-svg{width:100%;height:100%;max-width:180px;max-height:180px}
.plw-svg .a{fill:var(--plw-accent)}.plw-svg .b{fill:var(--plw-accent2)}.plw-svg .c{fill:var(--plw-fg)}.plw-svg .d{fill:var(--plw-bg)}.plw-svg .o{stroke:var(--plw-fg)}
.plw--art-left .plw-box,.plw--art-right .plw-box{width:min(calc(var(--plw-w) + 220px),calc(100vw - 32px))}
.plw--art-left .plw-box{grid-template-columns:38% 1fr}
.plw--art-right .plw-box{grid-template-columns:1fr 38%}
.plw--art-right .plw-art{order:2}
.plw--art-left .plw-art,.plw--art-right .plw-art{padding:24px}
.plw--art-top .plw-art{height:132px;padding:16px}
.plw--art-background .plw-art{position:absolute;inset:auto -30px -30px auto;width:200px;height:200px;background:none;opacity:${ART_BACKGROUND_OPACITY};pointer-events:none}
.plw--art-badge .plw-art{width:64px;height:64px;border-radius:50%;padding:12px;margin:24px auto -12px}
.plw--art-badge.plw--left .plw-art{margin-left:28px}
.plw--shape-square{--plw-radius:0px;--plw-btn-radius:0px}
.plw--shape-soft{--plw-radius:12px;--plw-btn-radius:8px}
.plw--shape-round{--plw-radius:24px;--plw-btn-radius:14px}
.plw--shape-pill{--plw-radius:28px;--plw-btn-radius:999px}
.plw--shape-notched{--plw-radius:0px;--plw-btn-radius:4px}
.plw--shape-notched .plw-box{clip-path:polygon(22px 0,100% 0,100% calc(100% - 22px),calc(100% - 22px) 100%,0 100%,0 22px)}
.plw--frame-shadow .plw-box{box-shadow:0 24px 60px rgba(8,10,20,.35),0 4px 12px rgba(8,10,20,.18)}
.plw--frame-outline .plw-box{border:3px solid var(--plw-fg)}
.plw--frame-offset .plw-box{border:2px solid var(--plw-fg);box-shadow:10px 10px 0 var(--plw-accent)}
.plw--frame-double .plw-box{border:6px double var(--plw-accent)}
.plw--frame-glow .plw-box{box-shadow:0 0 0 3px var(--plw-accent2),0 0 48px color-mix(in srgb,var(--plw-accent) 60%,transparent)}
.plw--frame-none .plw-box{box-shadow:0 8px 24px rgba(8,10,20,.2)}
.plw--pattern-dots{--plw-pattern:radial-gradient(var(--plw-fg) 1.5px,transparent 1.6px);--plw-pattern-size:14px 14px}
.plw--pattern-stripes{--plw-pattern:repeating-linear-gradient(90deg,var(--plw-accent) 0 8px,transparent 8px 22px)}
.plw--pattern-grid{--plw-pattern:linear-gradient(var(--plw-fg) 1px,transparent 1px),linear-gradient(90deg,var(--plw-fg) 1px,transparent 1px);--plw-pattern-size:22px 22px}
.plw--pattern-waves{--plw-pattern:radial-gradient(circle at 50% 100%,transparent 10px,var(--plw-accent) 11px 13px,transparent 14px);--plw-pattern-size:28px 16px}
.plw--pattern-diagonal{--plw-pattern:repeating-linear-gradient(45deg,var(--plw-fg) 0 2px,transparent 2px 14px)}
.plw--pattern-confetti{--plw-pattern:radial-gradient(circle at 20% 30%,var(--plw-accent) 4px,transparent 5px),radial-gradient(circle at 70% 60%,var(--plw-accent2) 5px,transparent 6px),radial-gradient(circle at 40% 80%,var(--plw-fg) 3px,transparent 4px);--plw-pattern-size:90px 90px}
.plw--pattern-rays{--plw-pattern:repeating-conic-gradient(from 0deg at 50% 110%,var(--plw-accent) 0 6deg,transparent 6deg 18deg)}
.plw--modal .plw-box{position:fixed;left:50%;top:50%;translate:-50% -50%;max-height:calc(100vh - 32px);overflow:auto}
.plw--fullscreen .plw-overlay{background:var(--plw-bg)}
.plw--fullscreen .plw-box{position:fixed;inset:0;width:auto;border-radius:0;border:0;box-shadow:none;clip-path:none;align-content:center;justify-items:center;overflow:auto}
.plw--fullscreen .plw-box>.plw-inner{max-width:640px;width:100%}
.plw--fullscreen.plw--art-top .plw-art{width:min(640px,100%)}
.plw--fullscreen.plw--art-left .plw-box,.plw--fullscreen.plw--art-right .plw-box{grid-template-columns:minmax(0,1fr) minmax(0,1fr);justify-items:stretch}
.plw--fullscreen .plw-title{font-size:40px}
.plw--slide-in .plw-box{position:fixed;bottom:20px}
.plw--bottom-right .plw-box{right:20px}.plw--bottom-left .plw-box{left:20px}
.plw--slide-in .plw-box{max-height:calc(100vh - 120px);overflow:auto}
.plw--sidebar .plw-box{position:fixed;top:0;bottom:0;width:min(380px,88vw);border-radius:0;align-content:start;overflow:auto}
.plw--sidebar.plw--left .plw-box{left:0}.plw--sidebar.plw--right .plw-box{right:0}
.plw--sidebar.plw--shape-notched .plw-box{clip-path:none}
.plw--panel .plw-box{position:fixed;left:0;right:0;bottom:0;width:auto;border-radius:var(--plw-radius) var(--plw-radius) 0 0;max-height:70vh;overflow:auto}
.plw--panel .plw-inner{max-width:980px;margin:0 auto;width:100%}
.plw--panel .plw-form{flex-direction:row;flex-wrap:wrap;align-items:flex-end}
.plw--panel .plw-form>*{flex:1 1 200px}
.plw--bar .plw-box{position:fixed;left:0;right:0;width:auto;border-radius:0;clip-path:none;grid-template-columns:auto 1fr}
.plw--bar.plw--top .plw-box{top:0}.plw--bar.plw--bottom .plw-box{bottom:0}
.plw--bar .plw-inner{padding:10px 52px 10px 16px;text-align:left}
.plw--bar .plw-main{flex-direction:row;flex-wrap:wrap;align-items:center;justify-content:center;gap:6px 16px}
.plw--bar .plw-title{font-size:17px;letter-spacing:0}
.plw--bar .plw-text{font-size:14px}
.plw--bar .plw-form{flex-direction:row;width:auto;align-items:flex-start}
.plw--bar .plw-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.plw--bar .plw-input{min-height:40px;padding:8px 10px;width:220px}
.plw--bar .plw-button{width:auto;min-height:40px;padding:9px 16px;font-size:15px}
.plw--bar .plw-art{width:40px;height:40px;margin:auto 0 auto 16px;padding:6px}
.plw--bar .plw-countdown{font-size:16px}
.plw--bar .plw-close{top:50%;translate:0 -50%}
.plw--bar .plw-success{flex-direction:row;justify-content:center;text-align:left;gap:12px}
.plw--bar .plw-success .plw-check-mark{width:32px;height:32px;font-size:18px}
.plw--inline .plw-box{width:100%;max-width:var(--plw-w);margin:0 auto;animation-delay:0s}
.plw--inline{display:block;margin:32px auto;max-width:var(--plw-w)}
.plw--inline .plw-close{display:none}
.plw-launcher{position:fixed;bottom:20px;z-index:2147483002;display:flex;align-items:center;gap:8px;font:700 15px/1 var(--plw-font);border:0;border-radius:999px;padding:10px 18px 10px 10px;background:var(--plw-btn);color:var(--plw-btn-fg);box-shadow:0 10px 30px rgba(8,10,20,.3);cursor:pointer;animation:plw-pop .5s .2s cubic-bezier(.2,.9,.3,1.3) both}
.plw-launcher .plw-svg{width:30px;height:30px}
.plw-launcher .plw-svg .a,.plw-launcher .plw-svg .c{fill:var(--plw-btn-fg)}.plw-launcher .plw-svg .d{fill:var(--plw-btn)}
.plw-launcher--right{right:20px}.plw-launcher--left{left:20px}
.plw--has-launcher.plw--slide-in .plw-box,.plw--has-launcher.plw--modal .plw-box{bottom:84px}
.plw--has-launcher.plw--modal .plw-box{top:auto;translate:-50% 0}
.plw--has-launcher.plw--panel .plw-inner,.plw--has-launcher.plw--sidebar .plw-inner{padding-bottom:84px}
.plw-agent{display:flex;align-items:center;gap:10px;text-align:left;width:100%}
.plw-avatar{width:44px;height:44px;border-radius:50%;background:var(--plw-btn);color:var(--plw-btn-fg);display:grid;place-items:center;font-weight:800;font-size:18px;flex:none;position:relative}
.plw-avatar::after{content:"";position:absolute;right:0;bottom:0;width:11px;height:11px;border-radius:50%;background:#25d366;border:2px solid var(--plw-bg)}
.plw-agent small{display:block;color:var(--plw-muted)}
@keyframes plw-fade{from{opacity:0}}
@keyframes plw-zoom{from{opacity:0;transform:scale(.82)}}
@keyframes plw-slide{from{opacity:0;transform:var(--plw-from)}}
@keyframes plw-drop{from{opacity:0;transform:translateY(-60px)}}
@keyframes plw-flip{from{opacity:0;transform:perspective(800px) rotateX(-70deg)}}
@keyframes plw-bounce{0%{opacity:0;transform:scale(.6)}60%{opacity:1;transform:scale(1.06)}80%{transform:scale(.97)}}
@keyframes plw-pop{from{opacity:0;transform:scale(.4)}}
@keyframes plw-out{to{opacity:0;transform:scale(.96)}}
.plw--anim-fade{--plw-anim:plw-fade}.plw--anim-zoom{--plw-anim:plw-zoom}.plw--anim-slide{--plw-anim:plw-slide}.plw--anim-drop{--plw-anim:plw-drop}.plw--anim-flip{--plw-anim:plw-flip}.plw--anim-bounce{--plw-anim:plw-bounce}
.plw--bar.plw--top,.plw--modal,.plw--fullscreen,.plw--inline{--plw-from:translateY(-100%)}
.plw--bar.plw--bottom,.plw--panel{--plw-from:translateY(100%)}
.plw--bottom-right,.plw--sidebar.plw--right{--plw-from:translateX(110%)}
.plw--bottom-left,.plw--sidebar.plw--left{--plw-from:translateX(-110%)}
.plw--bar,.plw--panel,.plw--sidebar{--plw-anim:plw-slide!important}
.plw--modal,.plw--fullscreen{--plw-delay:.35s}
@media (max-width:600px){
.plw--art-left .plw-box,.plw--art-right .plw-box,.plw--fullscreen.plw--art-left .plw-box,.plw--fullscreen.plw--art-right .plw-box{grid-template-columns:1fr}
.plw--art-left .plw-art,.plw--art-right .plw-art{order:0;height:110px;padding:12px}
.plw--slide-in .plw-box{left:12px;right:12px;width:auto;bottom:12px}
.plw-title{font-size:22px}.plw--fullscreen .plw-title{font-size:30px}
.plw--bar .plw-art{display:none}.plw--bar .plw-box{grid-template-columns:1fr}
.plw--bar .plw-input{width:100%}.plw--bar .plw-form{width:100%}
}
.plw-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (prefers-reduced-motion:reduce){.plw-box,.plw-overlay,.plw-launcher{animation:none!important}.plw-button{transition:none}}
`

/** CSS of one template: its colours, font and width as custom properties on its root. */
export function widgetVarsCss(template: WidgetTemplate): string {
  const scope = `#plw-${template.id}`
  const light = `${scope}{${vars(template.style.palette)}--plw-font:${FONTS[template.style.font]};--plw-w:${template.style.width}px;--plw-align:${template.style.align}}`
  const dark = template.dark ? `${scope}[data-theme=dark]{${vars(template.dark)}}` : ''
  return light + dark
}

function fieldHtml(template: WidgetTemplate, field: WidgetField): SafeHtml {
  const id = `plw-${template.id}-${field.name}`
  const errorId = `${id}-error`
  const required = field.required
  const error = html`<span class="plw-error" id="${errorId}" data-plw-error hidden></span>`
  const common = (type: string, extra: SafeHtml = html``) =>
    html`<label class="plw-field" data-plw-field="${field.name}"><span class="plw-label">${field.label}${required ? '' : ' (optional)'}</span>${new SafeHtml(
      `<input class="plw-input" type="${type}" id="${id}" name="${field.name}"`,
    )}${extra}${required ? new SafeHtml(' required') : ''} aria-describedby="${errorId}">${error}</label>`
  switch (field.type) {
    case 'email':
      return common('email', html` placeholder="${field.placeholder}" autocomplete="email" maxlength="254"`)
    case 'tel':
      return common('tel', html` placeholder="${field.placeholder}" autocomplete="tel" maxlength="32"`)
    case 'text':
      return common('text', html` placeholder="${field.placeholder}" autocomplete="${field.autocomplete}" maxlength="80"`)
    case 'date':
      return common('date', field.minAge ? html` data-min-age="${field.minAge}" autocomplete="bday"` : html``)
    case 'textarea':
      return html`<label class="plw-field" data-plw-field="${field.name}"><span class="plw-label">${field.label}${required ? '' : ' (optional)'}</span><textarea class="plw-input" id="${id}" name="${field.name}" placeholder="${field.placeholder}" maxlength="${field.maxLength}" rows="3"${required ? new SafeHtml(' required') : ''} aria-describedby="${errorId}"></textarea>${error}</label>`
    case 'select':
      return html`<label class="plw-field" data-plw-field="${field.name}"><span class="plw-label">${field.label}</span><select class="plw-input" id="${id}" name="${field.name}"${required ? new SafeHtml(' required') : ''} aria-describedby="${errorId}"><option value="">Choose…</option>${field.options.map((option) => html`<option>${option}</option>`)}</select>${error}</label>`
    case 'checkbox':
      return html`<div class="plw-field" data-plw-field="${field.name}"><label class="plw-check"><input type="checkbox" id="${id}" name="${field.name}" value="yes"${required ? new SafeHtml(' required') : ''} aria-describedby="${errorId}"><span>${field.label}</span></label>${error}</div>`
    case 'rating': {
      const stars = [5, 4, 3, 2, 1].map(
        (value) => html`<input type="radio" id="${id}-${value}" name="${field.name}" value="${value}"${required && value === 5 ? new SafeHtml(' required') : ''}><label for="${id}-${value}" title="${value} of 5"><span aria-hidden="true">★</span><span class="plw-sr">${value} of 5 stars</span></label>`,
      )
      return html`<fieldset class="plw-field" data-plw-field="${field.name}" data-plw-group aria-describedby="${errorId}"><legend class="plw-label">${field.label}</legend><div class="plw-stars">${stars}</div>${error}</fieldset>`
    }
    case 'choice':
      return html`<fieldset class="plw-field" data-plw-field="${field.name}" data-plw-group aria-describedby="${errorId}"><legend class="plw-label">${field.label}</legend><div class="plw-options">${field.options.map(
        (option, index) => html`<label class="plw-option"><input type="radio" name="${field.name}" value="${option}"${required && index === 0 ? new SafeHtml(' required') : ''}><span>${option}</span></label>`,
      )}</div>${error}</fieldset>`
  }
}

function pad(value: number) {
  return String(value).padStart(2, '0')
}

function countdownHtml(minutes: number): SafeHtml {
  const hours = Math.floor(minutes / 60)
  const days = Math.floor(hours / 24)
  const parts = days ? [days, hours % 24, minutes % 60] : [hours, minutes % 60, 0]
  const labels = days ? ['days', 'hours', 'minutes'] : ['hours', 'minutes', 'seconds']
  return html`<div class="plw-countdown" data-plw-countdown="${minutes * 60}" role="timer" aria-label="Time left">${parts.map(
    (value, index) => html`<span data-unit="${labels[index]!}">${pad(value)}</span>`,
  )}</div>`
}

/** The widget's markup and styles for one theme. */
export function renderWidget(template: WidgetTemplate, options: RenderOptions = {}): RenderedWidget {
  const theme: WidgetTheme = options.theme === 'dark' && template.dark ? 'dark' : 'light'
  const style = template.style
  const { layout } = template
  const hasOverlay = layout === 'modal' || layout === 'fullscreen'
  const dialog = hasOverlay || layout === 'sidebar'
  const launcherSide = style.placement === 'bottom-left' || style.placement === 'left' ? 'left' : 'right'
  const classes = [
    'plw',
    `plw--${layout}`,
    `plw--${style.placement}`,
    `plw--art-${style.artPlacement}`,
    `plw--shape-${style.shape}`,
    `plw--frame-${style.frame}`,
    `plw--pattern-${style.pattern}`,
    `plw--anim-${style.animation}`,
    `plw--h-${style.headlineStyle}`,
    `plw--${style.align}`,
    `plw--family-${template.family}`,
    template.launcher ? 'plw--has-launcher' : '',
  ].filter(Boolean)
  const titleId = `plw-${template.id}-title`
  const boxId = `plw-${template.id}-box`
  const art = style.artPlacement === 'none' ? '' : html`<div class="plw-art" aria-hidden="true">${new SafeHtml(artSvg(style.art))}</div>`
  const agent = template.agent
    ? html`<div class="plw-agent"><span class="plw-avatar" aria-hidden="true">${template.agent.name.slice(0, 1)}</span><span><strong>${template.agent.name}</strong> · ${template.agent.role}<small>${template.agent.reply}</small></span></div>`
    : ''
  const secondary = template.secondary
    ? html`<button type="button" class="plw-secondary" ${new SafeHtml(template.family === 'age' ? 'data-plw-refuse' : 'data-plw-close')}>${template.secondary.text}</button>`
    : ''
  const button = template.button
  const buttonAttribute = button.action === 'close' ? 'data-plw-close' : button.action === 'reveal' ? 'data-plw-reveal' : ''
  const actions =
    button.action === 'submit'
      ? html`<form class="plw-form" data-plw-form novalidate aria-labelledby="${titleId}">${template.fields.map((field) => fieldHtml(template, field))}<button type="submit" class="plw-button">${button.text}</button>${secondary}</form>`
      : html`<div class="plw-form"><button type="button" class="plw-button" ${new SafeHtml(buttonAttribute)}>${button.text}</button>${secondary}</div>`
  const success = template.success
  const code = success.code
    ? html`<div class="plw-code"><code data-plw-code>${success.code}</code><button type="button" class="plw-copy" data-plw-copy>Copy</button></div>`
    : ''
  const refusal = template.refusal
    ? html`<div class="plw-success" data-plw-refusal role="status" hidden><p class="plw-title">${template.refusal.headline}</p><p class="plw-text">${template.refusal.text}</p></div>`
    : ''
  const body = html`<div class="plw-inner">
<div class="plw-main" data-plw-main>${agent}${template.copy.kicker ? html`<p class="plw-kicker">${template.copy.kicker}</p>` : ''}<h2 class="plw-title" id="${titleId}">${template.copy.headline}</h2><p class="plw-text">${template.copy.text}</p>${
    template.countdownMinutes ? countdownHtml(template.countdownMinutes) : ''
  }${actions}${template.copy.note ? html`<p class="plw-note">${template.copy.note}</p>` : ''}</div>
<div class="plw-success" data-plw-success role="status" hidden><span class="plw-check-mark" aria-hidden="true">✓</span><p class="plw-title">${success.headline}</p><p class="plw-text">${success.text}</p>${code}</div>${refusal}
</div>`
  const closeButton = html`<button type="button" class="plw-close" data-plw-close aria-label="Close">×</button>`
  const launcher = template.launcher
    ? html`<button type="button" class="plw-launcher plw-launcher--${launcherSide}" data-plw-launcher aria-expanded="true" aria-controls="${boxId}">${new SafeHtml(artSvg(template.launcher.icon))}<span>${template.launcher.text}</span></button>`
    : ''
  const boxRole = dialog ? html` role="dialog" aria-modal="${hasOverlay ? 'true' : 'false'}" aria-labelledby="${titleId}"` : html` role="region" aria-labelledby="${titleId}"`
  const markup = html`<div id="plw-${template.id}" class="${classes.join(' ')}" data-plw data-hid="${template.id}" data-layout="${layout}" data-theme="${theme}"${template.dark ? new SafeHtml(' data-themed') : ''}>${
    hasOverlay ? html`<div class="plw-overlay" data-plw-overlay></div>` : ''
  }<div class="plw-box" id="${boxId}" data-plw-box${boxRole}>${closeButton}${art}${body}</div>${launcher}</div>`
  return { html: markup.value, css: WIDGET_BASE_CSS + widgetVarsCss(template), theme }
}
