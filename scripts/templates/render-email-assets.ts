/**
 * Draws the pictures of the email templates into data/generated/emails/assets/ (palette PNGs,
 * each well under 60 KB): `npx tsx scripts/templates/render-email-assets.ts` (`--out <folder>`
 * draws into <folder>/emails/assets/ instead). The drawings live in
 * scripts/templates/email-assets.ts; files no longer drawn there are removed.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createCanvas } from '@napi-rs/canvas'
import sharp from 'sharp'
import { EMAIL_ASSETS, HERO_SIZE, PRODUCT_SIZE } from './email-assets.js'
import { outputFolder } from './output.js'

const MAX_BYTES = 60 * 1024
const dir = path.join(outputFolder(), 'emails', 'assets')
fs.mkdirSync(dir, { recursive: true })

let total = 0
for (const [name, asset] of Object.entries(EMAIL_ASSETS)) {
  const [width, height] = asset.kind === 'hero' ? [HERO_SIZE.width, HERO_SIZE.height] : [PRODUCT_SIZE, PRODUCT_SIZE]
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = asset.bg
  ctx.fillRect(0, 0, width, height)
  asset.draw(ctx, width, height)
  const png = await sharp(canvas.toBuffer('image/png')).png({ palette: true, colours: 128, compressionLevel: 9, effort: 10 }).toBuffer()
  if (png.length > MAX_BYTES) throw new Error(`${name}: ${png.length} bytes, over ${MAX_BYTES}`)
  fs.writeFileSync(path.join(dir, name), png)
  total += png.length
}
for (const file of fs.readdirSync(dir)) if (!(file in EMAIL_ASSETS)) fs.rmSync(path.join(dir, file))
console.log(`${Object.keys(EMAIL_ASSETS).length} images, ${(total / 1024).toFixed(0)} KB in ${path.relative(process.cwd(), dir)}`)
