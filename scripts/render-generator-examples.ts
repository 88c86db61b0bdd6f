/**
 * `npm run examples`: draws the example images of the generator pages (data/generators.json,
 * the POST examples) with the image service itself, and keeps them in public/examples/ under a
 * name made from the request. Only missing ones are drawn (`--all` redraws every one); images no
 * example asks for any more are removed. A test fails when an example has no image, so run this
 * after editing an example's request and commit public/examples/. Slideshow examples name product
 * photos of the email templates: they are uploaded the way the page uploads a visitor's photos.
 */
import fs from 'node:fs'
import path from 'node:path'
import { EXAMPLES_DIR, exampleFile, loadGeneratorsFile } from '../server/generators/content.js'
import { root, startSite, stop } from './lib/server-process.js'
import { generatedDir } from '../server/project-root.js'

/** Uploads a photo through the image service's presigned POST and returns the URL a slideshow names. */
async function upload(base: string, photo: string): Promise<string> {
  const signature = (await (await fetch(`${base}/giffer/uploads/sign`, { method: 'POST' })).json()) as { url: string; key: string; fields: Record<string, string> }
  const form = new FormData()
  for (const [field, value] of Object.entries(signature.fields)) form.append(field, value)
  form.append('Content-Type', 'image/png')
  form.append('Content-Disposition', 'inline')
  // Each photo under a signature of its own, as its first file: the page's name for it.
  form.append('file', new Blob([fs.readFileSync(path.join(generatedDir, 'emails', 'assets', photo))], { type: 'image/png' }), 'photo-1.png')
  const uploaded = await fetch(new URL(signature.url, base), { method: 'POST', body: form })
  if (!uploaded.ok) throw new Error(`uploading ${photo} answered ${uploaded.status}`)
  const key = signature.key.replace('${filename}', 'photo-1.png')
  const resolved = (await (await fetch(`${base}/giffer/uploads/resolve?${new URLSearchParams({ key })}`)).json()) as { url: string }
  return resolved.url
}

const redrawAll = process.argv.includes('--all')
const outDir = path.join(root, EXAMPLES_DIR)
const file = loadGeneratorsFile(path.join(root, 'data'))
const requests = Object.values(file.pages).flatMap((page) => page.examples.items.map((item) => item.request))
const posts = requests.filter((request) => request.method === 'POST')

if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Build first: npm run build')
  process.exit(1)
}

fs.mkdirSync(outDir, { recursive: true })
const site = await startSite({ LOG_LEVEL: 'warn' })
let drawn = 0
try {
  for (const request of posts) {
    const target = path.join(outDir, exampleFile(request))
    if (!redrawAll && fs.existsSync(target)) continue
    const base = `http://127.0.0.1:${site.port}`
    const images = request.photos ? await Promise.all(request.photos.map((photo) => upload(base, photo))) : undefined
    const response = await fetch(`${base}/giffer/${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(images ? { ...request.body, images } : request.body),
    })
    if (!response.ok) throw new Error(`${request.path} answered ${response.status}: ${await response.text()}`)
    const gif = Buffer.from(await response.arrayBuffer())
    fs.writeFileSync(target, gif)
    console.log(`${path.basename(target)}: ${request.path}, ${gif.readUInt16LE(6)}×${gif.readUInt16LE(8)}, ${Math.round(gif.length / 1024)} KB`)
    drawn++
  }
} finally {
  await stop(site.child)
}
const wanted = new Set(posts.map(exampleFile))
for (const name of fs.readdirSync(outDir)) if (!wanted.has(name)) fs.rmSync(path.join(outDir, name))
console.log(`${drawn} example(s) drawn into ${path.relative(root, outDir)}`)
