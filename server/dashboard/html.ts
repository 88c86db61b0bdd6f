/** The dashboard's few HTML pages: escaped templates, one stylesheet, no inline script (the widget preview's own page carries its script inline, by hash). */
import { dashboardStaticFiles } from './static-files.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe for HTML content and quoted attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/** Raw markup that `html` must not escape again. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

type Part = string | number | SafeHtml | null | undefined | false | Part[]

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return ''
  if (part instanceof SafeHtml) return part.value
  if (Array.isArray(part)) return part.map(render).join('')
  return escapeHtml(String(part))
}

/** A template whose interpolations are escaped unless they are SafeHtml (or lists of it). */
export function html(strings: TemplateStringsArray, ...parts: Part[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, index) => out + text + (index < parts.length ? render(parts[index]!) : ''), ''))
}

export function page(title: string, body: SafeHtml, head: SafeHtml = html``): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="/favicon.png" type="image/png" sizes="48x48"><title>${title} · Poplift</title><link rel="stylesheet" href="${dashboardStaticFiles().url('app.css')}">${head}</head><body>${body}</body></html>`}`
}
