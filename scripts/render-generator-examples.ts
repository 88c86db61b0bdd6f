/**
 * `npm run examples`: draws the example images of the generator pages (data/generators.json,
 * the POST examples) with the image service itself, and keeps them in public/examples/ under a
 * name made from the request. Only missing ones are drawn (`--all` redraws every one); images no
 * example asks for any more are removed. A test fails when an example has no image, so run this
 * after editing an example's request and commit public/examples/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { EXAMPLES_DIR, exampleFile, loadGeneratorsFile } from '../server/generators/content.js'
import { root, startSite, stop } from './lib/server-process.js'

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
    const response = await fetch(`http://127.0.0.1:${site.port}/giffer/${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
    })
    if (!response.ok) throw new Error(`${request.path} answered ${response.status}: ${await response.text()}`)
    fs.writeFileSync(target, Buffer.from(await response.arrayBuffer()))
    drawn++
  }
} finally {
  await stop(site.child)
}
const wanted = new Set(posts.map(exampleFile))
for (const name of fs.readdirSync(outDir)) if (!wanted.has(name)) fs.rmSync(path.join(outDir, name))
console.log(`${drawn} example(s) drawn into ${path.relative(root, outDir)}`)
