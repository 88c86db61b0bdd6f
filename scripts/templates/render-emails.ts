/**
 * Renders every template of data/generated/email-templates.json to data/generated/emails/{id}.html
 * and {id}.txt (`npm run emails`), and removes the files of templates that no longer exist. Stops
 * on the first template that does not validate, refers to a missing picture (in emails/assets/)
 * or grows past the size Gmail clips at. `-- --out <folder>` reads and writes that folder instead
 * of data/generated/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { renderEmail } from './email-mjml.js'
import { outputFolder } from './output.js'
import { checkEmailCatalog, emailGroupsFileSchema, emailTemplatesFileSchema } from '../../shared/gallery/email-schema.js'

/** Gmail clips messages past about 102 KB; stay under it. */
const MAX_HTML_BYTES = 102_000

const data = outputFolder()
const out = path.join(data, 'emails')
const groups = emailGroupsFileSchema.parse(JSON.parse(fs.readFileSync(path.join(data, 'email-groups.json'), 'utf8'))).groups
const { templates } = emailTemplatesFileSchema.parse(JSON.parse(fs.readFileSync(path.join(data, 'email-templates.json'), 'utf8')))
checkEmailCatalog(groups, templates)
fs.mkdirSync(out, { recursive: true })

let largest = 0
for (const template of templates) {
  const { html, text } = await renderEmail(template)
  const bytes = Buffer.byteLength(html)
  if (bytes >= MAX_HTML_BYTES) throw new Error(`${template.id} (${template.name}): ${bytes} bytes of HTML, over ${MAX_HTML_BYTES}`)
  for (const [, file] of html.matchAll(/\{\{assets\}\}\/([^"'\s)]+)/g)) {
    if (!fs.existsSync(path.join(out, 'assets', file!))) throw new Error(`${template.id} (${template.name}): missing picture assets/${file}`)
  }
  largest = Math.max(largest, bytes)
  fs.writeFileSync(path.join(out, `${template.id}.html`), html)
  fs.writeFileSync(path.join(out, `${template.id}.txt`), text)
}
const ids = new Set(templates.map((template) => template.id))
for (const file of fs.readdirSync(out)) {
  const match = /^([a-z0-9]{8})\.(?:html|txt)$/.exec(file)
  if (match && !ids.has(match[1]!)) fs.rmSync(path.join(out, file))
}
console.log(`${templates.length} emails in ${path.relative(process.cwd(), out)}, largest ${(largest / 1024).toFixed(1)} KB`)
