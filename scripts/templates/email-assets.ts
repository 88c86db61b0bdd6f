/**
 * The pictures of the email templates: flat, stylised products and hero scenes drawn with
 * canvas, one entry per file of data/generated/emails/assets/. `alt` is what a template says about the
 * picture when it uses it. Drawn by scripts/templates/render-email-assets.ts; read for the alt texts by
 * scripts/templates/generate-email-templates.ts.
 */
import type { SKRSContext2D } from '@napi-rs/canvas'

type Ctx = SKRSContext2D

export interface EmailAsset {
  alt: string
  kind: 'product' | 'hero'
  /** Tile colour behind the object. */
  bg: string
  draw: (ctx: Ctx, w: number, h: number) => void
}

export const PRODUCT_SIZE = 400
export const HERO_SIZE = { width: 1120, height: 560 } as const

// ---------------------------------------------------------------- primitives

function round(ctx: Ctx, x: number, y: number, w: number, h: number, r: number, fill: string) {
  ctx.fillStyle = fill
  ctx.beginPath()
  ctx.roundRect(x, y, w, h, r)
  ctx.fill()
}

function circle(ctx: Ctx, x: number, y: number, r: number, fill: string) {
  ctx.fillStyle = fill
  ctx.beginPath()
  ctx.arc(x, y, r, 0, Math.PI * 2)
  ctx.fill()
}

function ellipse(ctx: Ctx, x: number, y: number, rx: number, ry: number, fill: string) {
  ctx.fillStyle = fill
  ctx.beginPath()
  ctx.ellipse(x, y, rx, ry, 0, 0, Math.PI * 2)
  ctx.fill()
}

function poly(ctx: Ctx, points: number[], fill: string) {
  ctx.fillStyle = fill
  ctx.beginPath()
  ctx.moveTo(points[0]!, points[1]!)
  for (let index = 2; index < points.length; index += 2) ctx.lineTo(points[index]!, points[index + 1]!)
  ctx.closePath()
  ctx.fill()
}

function stroke(ctx: Ctx, points: number[], colour: string, width: number) {
  ctx.strokeStyle = colour
  ctx.lineWidth = width
  ctx.lineCap = 'round'
  ctx.lineJoin = 'round'
  ctx.beginPath()
  ctx.moveTo(points[0]!, points[1]!)
  for (let index = 2; index < points.length; index += 2) ctx.lineTo(points[index]!, points[index + 1]!)
  ctx.stroke()
}

function arc(ctx: Ctx, x: number, y: number, r: number, from: number, to: number, colour: string, width: number) {
  ctx.strokeStyle = colour
  ctx.lineWidth = width
  ctx.lineCap = 'round'
  ctx.beginPath()
  ctx.arc(x, y, r, from, to)
  ctx.stroke()
}

/** The soft shadow every product stands on. */
const ground = (ctx: Ctx, x = 200, y = 330, rx = 130) => ellipse(ctx, x, y, rx, 16, 'rgba(0,0,0,0.10)')

// ---------------------------------------------------------------- products (400 × 400)

function sneaker(body: string, sole: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 300, 150)
    ctx.fillStyle = body
    ctx.beginPath()
    ctx.moveTo(60, 280)
    ctx.lineTo(70, 190)
    ctx.quadraticCurveTo(110, 170, 150, 200)
    ctx.lineTo(200, 225)
    ctx.quadraticCurveTo(300, 230, 345, 260)
    ctx.quadraticCurveTo(360, 272, 350, 284)
    ctx.closePath()
    ctx.fill()
    round(ctx, 50, 272, 310, 26, 13, sole)
    stroke(ctx, [150, 205, 175, 195, 195, 215, 170, 225, 215, 228], accent, 6)
    poly(ctx, [230, 232, 300, 244, 260, 262], accent)
    circle(ctx, 85, 205, 9, sole)
  }
}

function tshirt(body: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 120)
    poly(ctx, [140, 70, 90, 90, 40, 160, 90, 190, 115, 165, 115, 335, 285, 335, 285, 165, 310, 190, 360, 160, 310, 90, 260, 70], body)
    ctx.fillStyle = accent
    ctx.beginPath()
    ctx.arc(200, 72, 42, 0, Math.PI)
    ctx.fill()
    circle(ctx, 200, 210, 34, accent)
  }
}

function dress(body: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 352, 120)
    poly(ctx, [170, 60, 230, 60, 245, 150, 320, 340, 80, 340, 155, 150], body)
    round(ctx, 150, 145, 100, 18, 6, accent)
    stroke(ctx, [175, 60, 168, 30], body, 8)
    stroke(ctx, [225, 60, 232, 30], body, 8)
    for (let index = 0; index < 5; index++) circle(ctx, 125 + index * 38, 300 - (index % 2) * 40, 8, accent)
  }
}

function tote(body: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx)
    arc(ctx, 200, 150, 60, Math.PI, 0, accent, 12)
    poly(ctx, [110, 150, 290, 150, 310, 330, 90, 330], body)
    round(ctx, 150, 215, 100, 50, 8, accent)
  }
}

function sunglasses(frame: string, lens: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 290, 140)
    round(ctx, 70, 170, 115, 85, 30, frame)
    round(ctx, 215, 170, 115, 85, 30, frame)
    round(ctx, 80, 180, 95, 65, 24, lens)
    round(ctx, 225, 180, 95, 65, 24, lens)
    stroke(ctx, [185, 190, 215, 190], frame, 10)
    stroke(ctx, [70, 180, 40, 160], frame, 8)
    stroke(ctx, [330, 180, 360, 160], frame, 8)
    stroke(ctx, [100, 195, 125, 215], 'rgba(255,255,255,0.5)', 6)
  }
}

function watch(strap: string, face: string, hands: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 350, 90)
    round(ctx, 160, 40, 80, 320, 24, strap)
    circle(ctx, 200, 200, 82, hands)
    circle(ctx, 200, 200, 70, face)
    stroke(ctx, [200, 200, 200, 150], hands, 7)
    stroke(ctx, [200, 200, 235, 215], hands, 5)
    for (let index = 0; index < 12; index++) {
      const angle = (index / 12) * Math.PI * 2
      circle(ctx, 200 + Math.cos(angle) * 58, 200 + Math.sin(angle) * 58, 3, hands)
    }
  }
}

function coffeeBag(bag: string, label: string, ink: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 110)
    poly(ctx, [120, 90, 280, 90, 300, 340, 100, 340], bag)
    poly(ctx, [120, 90, 280, 90, 270, 60, 130, 60], ink)
    round(ctx, 135, 170, 130, 110, 10, label)
    ellipse(ctx, 200, 215, 22, 30, ink)
    stroke(ctx, [200, 190, 195, 215, 205, 240], label, 5)
    round(ctx, 155, 255, 90, 8, 4, ink)
  }
}

function latte(cup: string, coffee: string, saucer: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 320, 150)
    ellipse(ctx, 200, 300, 150, 30, saucer)
    ctx.fillStyle = cup
    ctx.beginPath()
    ctx.moveTo(95, 160)
    ctx.lineTo(305, 160)
    ctx.quadraticCurveTo(300, 300, 200, 300)
    ctx.quadraticCurveTo(100, 300, 95, 160)
    ctx.fill()
    arc(ctx, 310, 210, 32, -Math.PI / 2, Math.PI / 2, cup, 14)
    ellipse(ctx, 200, 160, 105, 24, coffee)
    ctx.fillStyle = 'rgba(255,255,255,0.75)'
    ctx.beginPath()
    ctx.moveTo(200, 175)
    ctx.bezierCurveTo(160, 150, 175, 140, 200, 155)
    ctx.bezierCurveTo(225, 140, 240, 150, 200, 175)
    ctx.fill()
    stroke(ctx, [170, 120, 180, 95, 170, 70], 'rgba(0,0,0,0.15)', 6)
    stroke(ctx, [230, 120, 240, 95, 230, 70], 'rgba(0,0,0,0.15)', 6)
  }
}

function teaTin(tin: string, band: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 340, 100)
    round(ctx, 120, 110, 160, 225, 12, tin)
    round(ctx, 112, 90, 176, 40, 10, band)
    round(ctx, 120, 190, 160, 70, 0, band)
    ctx.fillStyle = tin
    ctx.beginPath()
    ctx.ellipse(200, 225, 16, 26, 0.6, 0, Math.PI * 2)
    ctx.fill()
  }
}

function lipstick(tube: string, colour: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 80)
    round(ctx, 155, 210, 90, 130, 10, tube)
    round(ctx, 165, 150, 70, 70, 6, '#d9b66c')
    poly(ctx, [172, 150, 228, 150, 228, 90, 172, 120], colour)
    stroke(ctx, [155, 300, 245, 300], 'rgba(255,255,255,0.35)', 4)
  }
}

function serum(glass: string, liquid: string, cap: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 90)
    round(ctx, 135, 160, 130, 180, 22, glass)
    round(ctx, 145, 220, 110, 110, 16, liquid)
    round(ctx, 175, 120, 50, 45, 6, cap)
    ellipse(ctx, 200, 90, 28, 38, cap)
    round(ctx, 150, 175, 20, 90, 10, 'rgba(255,255,255,0.45)')
  }
}

function creamJar(jar: string, lid: string, label: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 330, 140)
    round(ctx, 85, 195, 230, 130, 26, jar)
    round(ctx, 78, 150, 244, 60, 14, lid)
    round(ctx, 140, 235, 120, 50, 8, label)
  }
}

function perfume(glass: string, liquid: string, cap: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 110)
    round(ctx, 110, 150, 180, 190, 40, glass)
    round(ctx, 125, 200, 150, 125, 30, liquid)
    round(ctx, 180, 110, 40, 45, 4, '#c9a85c')
    round(ctx, 160, 60, 80, 55, 12, cap)
  }
}

function book(cover: string, spine: string, ink: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 210, 355, 110)
    round(ctx, 125, 45, 170, 300, 6, '#f3efe6')
    round(ctx, 110, 40, 170, 300, 8, cover)
    round(ctx, 110, 40, 22, 300, 4, spine)
    round(ctx, 150, 90, 105, 12, 6, ink)
    round(ctx, 150, 112, 75, 10, 5, ink)
    circle(ctx, 200, 230, 40, ink)
    circle(ctx, 215, 220, 40, cover)
  }
}

function bookStack(colours: string[]): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 140)
    colours.forEach((colour, index) => {
      const y = 300 - index * 52
      const shift = [0, 14, -10, 8][index] ?? 0
      round(ctx, 80 + shift, y, 240, 46, 6, colour)
      round(ctx, 300 + shift, y + 6, 14, 34, 3, '#f3efe6')
      round(ctx, 120 + shift, y + 18, 90, 8, 4, 'rgba(255,255,255,0.6)')
    })
  }
}

function dogBowl(bowl: string, food: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 320, 150)
    ellipse(ctx, 200, 215, 125, 30, food)
    for (let index = 0; index < 9; index++) circle(ctx, 110 + index * 22, 205 - (index % 3) * 8, 12, food)
    poly(ctx, [70, 220, 330, 220, 300, 310, 100, 310], bowl)
    ellipse(ctx, 200, 310, 100, 14, bowl)
    circle(ctx, 200, 262, 20, 'rgba(255,255,255,0.55)')
    circle(ctx, 186, 247, 7, 'rgba(255,255,255,0.55)')
    circle(ctx, 214, 247, 7, 'rgba(255,255,255,0.55)')
  }
}

function yarn(ball: string, line: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 330, 110)
    circle(ctx, 200, 210, 110, ball)
    for (let index = -2; index <= 2; index++) arc(ctx, 200 + index * 30, 210, 95, -1.1, 1.1, line, 5)
    arc(ctx, 200, 330, 80, -2.5, -0.6, line, 5)
    stroke(ctx, [300, 260, 340, 300, 330, 330], line, 5)
  }
}

function petBed(bed: string, cushion: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 320, 165)
    ellipse(ctx, 200, 250, 165, 75, bed)
    ellipse(ctx, 200, 235, 125, 45, cushion)
    ellipse(ctx, 200, 275, 150, 30, bed)
    circle(ctx, 165, 225, 10, bed)
    circle(ctx, 240, 220, 10, bed)
  }
}

function headphones(band: string, cup: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 340, 120)
    arc(ctx, 200, 210, 110, Math.PI, 0, band, 22)
    round(ctx, 70, 190, 60, 120, 26, cup)
    round(ctx, 270, 190, 60, 120, 26, cup)
    round(ctx, 96, 205, 20, 90, 10, band)
    round(ctx, 284, 205, 20, 90, 10, band)
  }
}

function phone(body: string, screen: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 360, 90)
    round(ctx, 130, 40, 140, 300, 26, body)
    round(ctx, 140, 52, 120, 276, 18, screen)
    round(ctx, 180, 58, 40, 10, 5, body)
    round(ctx, 155, 90, 90, 90, 14, accent)
    for (let row = 0; row < 3; row++) for (let col = 0; col < 3; col++) round(ctx, 155 + col * 32, 200 + row * 32, 24, 24, 7, 'rgba(255,255,255,0.55)')
  }
}

function smartwatch(strap: string, screen: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 355, 80)
    round(ctx, 165, 30, 70, 340, 20, strap)
    round(ctx, 130, 120, 140, 160, 34, '#2a2d34')
    round(ctx, 142, 132, 116, 136, 26, screen)
    arc(ctx, 200, 200, 40, -Math.PI / 2, Math.PI * 1.1, accent, 10)
    round(ctx, 268, 170, 10, 30, 4, '#2a2d34')
  }
}

function speaker(body: string, grille: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 110)
    round(ctx, 120, 60, 160, 280, 40, body)
    circle(ctx, 200, 240, 62, grille)
    circle(ctx, 200, 240, 30, body)
    circle(ctx, 200, 125, 30, grille)
  }
}

function laptop(lid: string, screen: string, accent: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 320, 170)
    round(ctx, 80, 90, 240, 165, 12, lid)
    round(ctx, 92, 102, 216, 141, 6, screen)
    poly(ctx, [50, 265, 350, 265, 330, 300, 70, 300], lid)
    round(ctx, 110, 125, 110, 14, 7, accent)
    round(ctx, 110, 150, 160, 10, 5, 'rgba(255,255,255,0.5)')
    round(ctx, 110, 170, 140, 10, 5, 'rgba(255,255,255,0.5)')
  }
}

function chair(seat: string, leg: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 120)
    stroke(ctx, [130, 250, 110, 340], leg, 12)
    stroke(ctx, [270, 250, 290, 340], leg, 12)
    stroke(ctx, [160, 250, 165, 330], leg, 10)
    stroke(ctx, [240, 250, 235, 330], leg, 10)
    round(ctx, 120, 80, 160, 150, 40, seat)
    round(ctx, 100, 210, 200, 50, 20, seat)
  }
}

function lamp(shade: string, base: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 90)
    poly(ctx, [140, 60, 260, 60, 300, 170, 100, 170], shade)
    stroke(ctx, [200, 170, 200, 320], base, 10)
    ellipse(ctx, 200, 328, 70, 16, base)
    ellipse(ctx, 200, 175, 60, 10, 'rgba(255,240,180,0.8)')
  }
}

function plantPot(pot: string, leaf: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 100)
    const leafAt = (x: number, y: number, angle: number) => {
      ctx.save()
      ctx.translate(x, y)
      ctx.rotate(angle)
      ellipse(ctx, 0, -55, 28, 60, leaf)
      ctx.restore()
    }
    leafAt(200, 220, 0)
    leafAt(190, 225, -0.7)
    leafAt(210, 225, 0.7)
    leafAt(185, 235, -1.3)
    leafAt(215, 235, 1.3)
    poly(ctx, [130, 220, 270, 220, 250, 340, 150, 340], pot)
    round(ctx, 122, 212, 156, 26, 6, pot)
  }
}

function candle(jar: string, wax: string, label: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 340, 110)
    round(ctx, 120, 140, 160, 195, 20, jar)
    round(ctx, 130, 150, 140, 30, 10, wax)
    stroke(ctx, [200, 150, 200, 125], '#3a3a3a', 4)
    ellipse(ctx, 200, 105, 13, 24, '#ffb43a')
    ellipse(ctx, 200, 112, 6, 12, '#fff1b8')
    round(ctx, 140, 220, 120, 70, 6, label)
  }
}

function yogaMat(mat: string, band: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 320, 160)
    round(ctx, 60, 170, 280, 130, 65, mat)
    circle(ctx, 95, 235, 58, mat)
    circle(ctx, 95, 235, 38, 'rgba(0,0,0,0.12)')
    circle(ctx, 95, 235, 20, mat)
    round(ctx, 170, 170, 24, 130, 4, band)
    round(ctx, 260, 170, 24, 130, 4, band)
  }
}

function dumbbell(weight: string, bar: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 300, 160)
    round(ctx, 90, 215, 220, 30, 10, bar)
    round(ctx, 60, 160, 45, 140, 14, weight)
    round(ctx, 105, 180, 30, 100, 10, weight)
    round(ctx, 295, 160, 45, 140, 14, weight)
    round(ctx, 265, 180, 30, 100, 10, weight)
  }
}

function bottle(body: string, cap: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 355, 80)
    round(ctx, 145, 100, 110, 250, 30, body)
    round(ctx, 165, 60, 70, 50, 10, cap)
    arc(ctx, 200, 60, 24, Math.PI, 0, cap, 8)
    round(ctx, 145, 200, 110, 40, 0, 'rgba(255,255,255,0.35)')
  }
}

function backpack(body: string, pocket: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 350, 120)
    arc(ctx, 200, 100, 40, Math.PI, 0, pocket, 12)
    round(ctx, 110, 90, 180, 250, 50, body)
    round(ctx, 135, 210, 130, 110, 24, pocket)
    round(ctx, 160, 240, 80, 10, 5, body)
  }
}

function pizza(crust: string, sauce: string, top: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 330, 160)
    circle(ctx, 200, 200, 150, crust)
    circle(ctx, 200, 200, 128, sauce)
    circle(ctx, 200, 200, 118, '#f6d36b')
    for (const [x, y] of [[150, 150], [250, 140], [200, 210], [140, 250], [260, 250], [210, 290], [290, 195], [110, 195]] as const) circle(ctx, x, y, 18, top)
    for (const [x, y] of [[180, 160], [230, 240], [170, 290]] as const) ellipse(ctx, x, y, 10, 6, '#4a9a4a')
  }
}

function saladBowl(bowl: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 330, 150)
    for (const [x, y, colour] of [[140, 170, '#5ea34a'], [200, 150, '#7cc15e'], [260, 170, '#4d8f3c'], [170, 190, '#e2503c'], [235, 190, '#f2c14e'], [200, 185, '#e2503c']] as const) circle(ctx, x, y, 38, colour)
    ctx.fillStyle = bowl
    ctx.beginPath()
    ctx.moveTo(60, 200)
    ctx.lineTo(340, 200)
    ctx.quadraticCurveTo(330, 320, 200, 320)
    ctx.quadraticCurveTo(70, 320, 60, 200)
    ctx.fill()
  }
}

function burger(bun: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 330, 150)
    round(ctx, 80, 270, 240, 45, 20, bun)
    round(ctx, 70, 240, 260, 35, 14, '#6b3b23')
    poly(ctx, [70, 240, 330, 240, 310, 225, 90, 225], '#f2c14e')
    for (let index = 0; index < 6; index++) ellipse(ctx, 95 + index * 42, 225, 26, 10, '#5ea34a')
    ctx.fillStyle = bun
    ctx.beginPath()
    ctx.moveTo(80, 220)
    ctx.quadraticCurveTo(80, 110, 200, 110)
    ctx.quadraticCurveTo(320, 110, 320, 220)
    ctx.closePath()
    ctx.fill()
    for (const [x, y] of [[150, 150], [200, 140], [250, 155], [180, 180], [230, 185]] as const) ellipse(ctx, x, y, 6, 3, '#fff3d6')
  }
}

function suitcase(body: string, trim: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 355, 110)
    round(ctx, 165, 40, 70, 60, 14, trim)
    round(ctx, 180, 55, 40, 50, 6, 'rgba(0,0,0,0)')
    round(ctx, 120, 90, 160, 240, 20, body)
    for (let index = 0; index < 3; index++) round(ctx, 150 + index * 40, 105, 12, 210, 6, trim)
    circle(ctx, 145, 340, 12, '#2a2d34')
    circle(ctx, 255, 340, 12, '#2a2d34')
  }
}

function giftBox(box: string, ribbon: string): EmailAsset['draw'] {
  return (ctx) => {
    ground(ctx, 200, 345, 130)
    round(ctx, 95, 170, 210, 165, 10, box)
    round(ctx, 80, 140, 240, 50, 10, box)
    round(ctx, 185, 140, 30, 195, 0, ribbon)
    ellipse(ctx, 165, 125, 40, 22, ribbon)
    ellipse(ctx, 235, 125, 40, 22, ribbon)
    circle(ctx, 200, 135, 16, ribbon)
  }
}

// ---------------------------------------------------------------- heroes (1120 × 560)

function sky(ctx: Ctx, w: number, h: number, top: string, bottom: string) {
  const gradient = ctx.createLinearGradient(0, 0, 0, h)
  gradient.addColorStop(0, top)
  gradient.addColorStop(1, bottom)
  ctx.fillStyle = gradient
  ctx.fillRect(0, 0, w, h)
}

function beach(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#7fd3f0', '#d9f3fb')
  circle(ctx, 880, 140, 70, '#ffd25a')
  poly(ctx, [0, 330, w, 300, w, h, 0, h], '#2f9fd0')
  stroke(ctx, [80, 360, 200, 350, 320, 362], 'rgba(255,255,255,0.6)', 6)
  stroke(ctx, [600, 340, 760, 332, 900, 345], 'rgba(255,255,255,0.6)', 6)
  ctx.fillStyle = '#f4d9a6'
  ctx.beginPath()
  ctx.moveTo(0, 430)
  ctx.quadraticCurveTo(560, 360, w, 430)
  ctx.lineTo(w, h)
  ctx.lineTo(0, h)
  ctx.fill()
  stroke(ctx, [240, 470, 250, 240], '#8a5a3c', 14)
  for (const angle of [-2.6, -2.0, -1.2, -0.5]) {
    ctx.save()
    ctx.translate(250, 240)
    ctx.rotate(angle)
    ellipse(ctx, 70, 0, 80, 18, '#3d9b55')
    ctx.restore()
  }
  ctx.fillStyle = '#e84f5a'
  ctx.beginPath()
  ctx.moveTo(700, 400)
  ctx.quadraticCurveTo(780, 300, 860, 400)
  ctx.closePath()
  ctx.fill()
  stroke(ctx, [780, 330, 790, 480], '#5a5a5a', 6)
  round(ctx, 640, 450, 140, 28, 10, '#ffffff')
}

function mountains(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#f7c59f', '#fbe9d7')
  circle(ctx, 300, 180, 60, '#fff4e0')
  poly(ctx, [0, 420, 260, 170, 460, 380, 640, 200, 900, 420, w, 300, w, h, 0, h], '#5b6c8f')
  poly(ctx, [640, 200, 700, 255, 670, 250, 640, 270, 610, 250, 585, 255], '#ffffff')
  poly(ctx, [260, 170, 310, 215, 280, 212, 255, 230, 230, 210], '#ffffff')
  poly(ctx, [0, 470, 300, 360, 600, 460, 900, 380, w, 460, w, h, 0, h], '#2f4a3f')
  for (let index = 0; index < 9; index++) {
    const x = 60 + index * 125
    poly(ctx, [x, 470, x + 30, 400, x + 60, 470], '#1f3a30')
  }
  poly(ctx, [820, 520, 880, 450, 940, 520], '#e4703a')
}

function saleBurst(background: string, shapes: string[], dark = false) {
  return (ctx: Ctx, w: number, h: number) => {
    ctx.fillStyle = background
    ctx.fillRect(0, 0, w, h)
    for (let index = 0; index < 14; index++) {
      const colour = shapes[index % shapes.length]!
      const x = (index * 197) % w
      const y = (index * 131) % h
      if (index % 3 === 0) circle(ctx, x, y, 40 + (index % 4) * 18, colour)
      else if (index % 3 === 1) round(ctx, x, y, 90, 90, 18, colour)
      else poly(ctx, [x, y, x + 70, y + 120, x - 60, y + 110], colour)
    }
    circle(ctx, w / 2, h / 2, 170, dark ? '#000000' : '#ffffff')
    ctx.lineWidth = 26
    ctx.strokeStyle = shapes[0]!
    ctx.beginPath()
    ctx.moveTo(w / 2 + 70, h / 2 - 80)
    ctx.lineTo(w / 2 - 70, h / 2 + 80)
    ctx.stroke()
    circle(ctx, w / 2 - 60, h / 2 - 60, 32, shapes[0]!)
    circle(ctx, w / 2 + 60, h / 2 + 60, 32, shapes[0]!)
  }
}

function gifts(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = '#1f3d36'
  ctx.fillRect(0, 0, w, h)
  for (let index = 0; index < 40; index++) circle(ctx, (index * 293) % w, (index * 157) % 300, 4, 'rgba(255,255,255,0.6)')
  const box = (x: number, y: number, size: number, colour: string, ribbon: string) => {
    round(ctx, x, y, size, size, 8, colour)
    round(ctx, x + size / 2 - 12, y, 24, size, 0, ribbon)
    round(ctx, x, y + size / 3, size, 20, 0, ribbon)
    ellipse(ctx, x + size / 2 - 26, y - 12, 28, 16, ribbon)
    ellipse(ctx, x + size / 2 + 26, y - 12, 28, 16, ribbon)
  }
  box(300, 280, 220, '#d9453b', '#f5d06a')
  box(560, 340, 160, '#f5d06a', '#d9453b')
  box(740, 300, 200, '#ffffff', '#3f8f6b')
  box(160, 380, 120, '#3f8f6b', '#ffffff')
}

function coffeeScene(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#3b2a22', '#5a4032')
  round(ctx, 0, 420, w, 140, 0, '#8a5a3c')
  for (let index = 0; index < 24; index++) ellipse(ctx, 80 + index * 42, 470 + (index % 3) * 20, 14, 9, '#4a2c1d')
  ctx.fillStyle = '#f4ede4'
  ctx.beginPath()
  ctx.moveTo(430, 220)
  ctx.lineTo(690, 220)
  ctx.quadraticCurveTo(680, 420, 560, 420)
  ctx.quadraticCurveTo(440, 420, 430, 220)
  ctx.fill()
  arc(ctx, 700, 290, 42, -Math.PI / 2, Math.PI / 2, '#f4ede4', 18)
  ellipse(ctx, 560, 222, 130, 28, '#7a4a2c')
  for (const x of [520, 560, 600]) stroke(ctx, [x, 180, x + 15, 140, x - 5, 100, x + 10, 60], 'rgba(255,255,255,0.35)', 8)
}

function flowers(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#fde7ef', '#fff6f0')
  const flower = (x: number, y: number, r: number, petal: string, centre: string) => {
    stroke(ctx, [x, y, x + 10, h], '#5e9b5a', 10)
    for (let index = 0; index < 6; index++) {
      const angle = (index / 6) * Math.PI * 2
      circle(ctx, x + Math.cos(angle) * r, y + Math.sin(angle) * r, r * 0.8, petal)
    }
    circle(ctx, x, y, r * 0.7, centre)
  }
  flower(180, 260, 50, '#f48fb1', '#fbc02d')
  flower(420, 180, 62, '#ffffff', '#f9a825')
  flower(640, 300, 55, '#ce93d8', '#fff176')
  flower(880, 200, 66, '#ff8a65', '#fff59d')
  flower(1020, 340, 40, '#f48fb1', '#fbc02d')
}

function bookshelf(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = '#efe6d8'
  ctx.fillRect(0, 0, w, h)
  const colours = ['#2e5a88', '#c0504d', '#e5b84c', '#3f7f5f', '#7b5aa6', '#d9825b', '#2a2d34']
  for (const shelf of [240, 500]) {
    round(ctx, 0, shelf, w, 24, 0, '#8a5a3c')
    let x = 40
    for (let index = 0; x < w - 60; index++) {
      const width = 34 + ((index * 17) % 30)
      const height = 150 + ((index * 29) % 60)
      round(ctx, x, shelf - height, width, height, 4, colours[index % colours.length]!)
      round(ctx, x + 8, shelf - height + 20, width - 16, 6, 3, 'rgba(255,255,255,0.6)')
      x += width + 6
      if (index % 9 === 8) x += 60
    }
  }
}

function workspace(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#e6eef7', '#f6f9fc')
  round(ctx, 0, 420, w, 140, 0, '#c9a27a')
  round(ctx, 360, 170, 400, 250, 16, '#2a2d34')
  round(ctx, 376, 186, 368, 218, 8, '#4f8df7')
  round(ctx, 400, 210, 180, 22, 11, '#ffffff')
  round(ctx, 400, 250, 300, 14, 7, 'rgba(255,255,255,0.6)')
  round(ctx, 400, 276, 260, 14, 7, 'rgba(255,255,255,0.6)')
  round(ctx, 530, 420, 60, 0, 0, '#2a2d34')
  poly(ctx, [520, 420, 600, 420, 620, 440, 500, 440], '#2a2d34')
  poly(ctx, [170, 330, 260, 330, 245, 420, 185, 420], '#e4703a')
  for (const angle of [-0.6, 0, 0.6]) {
    ctx.save()
    ctx.translate(215, 330)
    ctx.rotate(angle)
    ellipse(ctx, 0, -60, 22, 62, '#3d9b55')
    ctx.restore()
  }
  round(ctx, 850, 340, 80, 80, 10, '#ffffff')
  arc(ctx, 935, 380, 20, -Math.PI / 2, Math.PI / 2, '#ffffff', 10)
}

function blackFriday(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = '#0d0d0f'
  ctx.fillRect(0, 0, w, h)
  for (let index = 0; index < 12; index++) poly(ctx, [index * 110 - 60, h, index * 110 + 40, 0, index * 110 + 90, 0, index * 110 - 10, h], index % 2 ? '#1c1c22' : '#141418')
  const tag = (x: number, y: number, angle: number, colour: string) => {
    ctx.save()
    ctx.translate(x, y)
    ctx.rotate(angle)
    poly(ctx, [-110, -60, 70, -60, 120, 0, 70, 60, -110, 60], colour)
    circle(ctx, 60, 0, 14, '#0d0d0f')
    ctx.restore()
  }
  tag(330, 250, -0.3, '#ffcc00')
  tag(640, 330, 0.2, '#ff3b5c')
  tag(860, 200, -0.15, '#ffffff')
}

function anniversary(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#fff1e0', '#ffe2cc')
  const balloon = (x: number, y: number, colour: string) => {
    stroke(ctx, [x, y + 70, x + 10, y + 200], '#9a8a7a', 3)
    ellipse(ctx, x, y, 55, 70, colour)
  }
  balloon(160, 160, '#ff6f61')
  balloon(270, 120, '#6c8cff')
  balloon(880, 150, '#ffc94d')
  balloon(990, 200, '#43b58e')
  round(ctx, 400, 320, 320, 150, 20, '#ffffff')
  round(ctx, 440, 220, 240, 110, 18, '#f7b7c8')
  round(ctx, 400, 380, 320, 22, 0, '#f7b7c8')
  for (let index = 0; index < 5; index++) {
    const x = 475 + index * 42
    round(ctx, x, 160, 14, 60, 4, ['#6c8cff', '#ff6f61', '#43b58e', '#ffc94d', '#6c8cff'][index]!)
    ellipse(ctx, x + 7, 145, 8, 14, '#ffb43a')
  }
  for (let index = 0; index < 30; index++) round(ctx, (index * 211) % w, (index * 97) % 300, 12, 6, 3, ['#ff6f61', '#6c8cff', '#43b58e', '#ffc94d'][index % 4]!)
}

function dogPark(ctx: Ctx, w: number, h: number) {
  sky(ctx, w, h, '#bfe6d0', '#eaf7ef')
  circle(ctx, 950, 120, 60, '#fff2b3')
  ctx.fillStyle = '#7cc38f'
  ctx.beginPath()
  ctx.moveTo(0, 400)
  ctx.quadraticCurveTo(560, 320, w, 400)
  ctx.lineTo(w, h)
  ctx.lineTo(0, h)
  ctx.fill()
  // A dog: body, head, ears, legs, tail.
  round(ctx, 430, 300, 260, 110, 55, '#c98b4f')
  circle(ctx, 690, 280, 70, '#c98b4f')
  ellipse(ctx, 650, 250, 26, 50, '#8a5a3c')
  ellipse(ctx, 740, 300, 30, 22, '#e8c39e')
  circle(ctx, 758, 292, 10, '#2a2d34')
  circle(ctx, 700, 262, 8, '#2a2d34')
  for (const x of [460, 510, 610, 650]) round(ctx, x, 380, 28, 90, 12, '#b57a42')
  stroke(ctx, [440, 320, 380, 250], '#c98b4f', 24)
  circle(ctx, 860, 440, 34, '#ff6f61')
  stroke(ctx, [835, 430, 885, 450], '#ffffff', 5)
}

function kitchen(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = '#fff4e6'
  ctx.fillRect(0, 0, w, h)
  for (let x = 0; x < w; x += 80) for (let y = 0; y < 300; y += 80) round(ctx, x + 4, y + 4, 72, 72, 6, (x + y) % 160 ? '#ffe9cf' : '#fff4e6')
  round(ctx, 0, 360, w, 200, 0, '#d35f3c')
  const plate = (x: number, y: number, food: string) => {
    ellipse(ctx, x, y, 150, 55, '#ffffff')
    ellipse(ctx, x, y - 5, 100, 34, food)
  }
  plate(280, 420, '#f2c14e')
  plate(840, 430, '#5ea34a')
  circle(ctx, 560, 330, 120, '#ffffff')
  circle(ctx, 560, 330, 100, '#e2503c')
  for (const [x, y] of [[520, 300], [600, 310], [560, 370], [520, 360], [600, 360]] as const) circle(ctx, x, y, 15, '#f6d36b')
}

export const EMAIL_ASSETS: Record<string, EmailAsset> = {
  'sneaker-coral.png': { alt: 'Coral running shoe with a white sole', kind: 'product', bg: '#fdeae4', draw: sneaker('#f26b5b', '#ffffff', '#2a2d34') },
  'sneaker-mint.png': { alt: 'Mint green trainer with navy laces', kind: 'product', bg: '#e3f5ef', draw: sneaker('#5cc9a7', '#f4f4f4', '#1d3557') },
  'sneaker-black.png': { alt: 'Black high-performance sneaker with a yellow stripe', kind: 'product', bg: '#eeeeee', draw: sneaker('#23232a', '#fafafa', '#ffcc00') },
  'tshirt-navy.png': { alt: 'Navy cotton T-shirt with a round logo', kind: 'product', bg: '#e6ecf5', draw: tshirt('#1d3557', '#e9c46a') },
  'tshirt-sage.png': { alt: 'Sage green organic T-shirt', kind: 'product', bg: '#eef3ea', draw: tshirt('#8fae88', '#f6f1e7') },
  'dress-rose.png': { alt: 'Rose summer dress with white polka dots', kind: 'product', bg: '#fbe9ee', draw: dress('#e07a95', '#ffffff') },
  'dress-ochre.png': { alt: 'Ochre linen midi dress with a belt', kind: 'product', bg: '#f8f0df', draw: dress('#d99a2b', '#7a4a1c') },
  'tote-sand.png': { alt: 'Sand canvas tote bag with a leather patch', kind: 'product', bg: '#f5efe4', draw: tote('#d8c3a0', '#8a5a3c') },
  'sunglasses.png': { alt: 'Tortoiseshell sunglasses with dark lenses', kind: 'product', bg: '#fff3dc', draw: sunglasses('#7a4a1c', '#2a2d34') },
  'watch-leather.png': { alt: 'Wristwatch with a cream face and brown leather strap', kind: 'product', bg: '#f3ece3', draw: watch('#8a5a3c', '#fbf7ef', '#2a2d34') },
  'coffee-bag.png': { alt: 'Bag of whole coffee beans with a cream label', kind: 'product', bg: '#f1e7dc', draw: coffeeBag('#6b4226', '#f4ede4', '#2b1a10') },
  'coffee-bag-green.png': { alt: 'Green bag of single-origin coffee', kind: 'product', bg: '#e7efe5', draw: coffeeBag('#2f5d50', '#f4ede4', '#18302a') },
  'latte.png': { alt: 'Latte with leaf art in a white cup on a saucer', kind: 'product', bg: '#efe4d8', draw: latte('#ffffff', '#b07b52', '#e9e2d8') },
  'tea-tin.png': { alt: 'Teal tin of loose-leaf green tea', kind: 'product', bg: '#e4f1f1', draw: teaTin('#2a8c8c', '#f2d58c') },
  'lipstick.png': { alt: 'Red lipstick in a black and gold case', kind: 'product', bg: '#fbe4e4', draw: lipstick('#23232a', '#c8102e') },
  'serum.png': { alt: 'Glass serum bottle with a dropper', kind: 'product', bg: '#f3ece6', draw: serum('#f2dcc7', '#e8b98f', '#3a3a3a') },
  'cream-jar.png': { alt: 'White face cream jar with a rose-gold lid', kind: 'product', bg: '#f7ebe8', draw: creamJar('#ffffff', '#d4a29a', '#f2d7d0') },
  'perfume.png': { alt: 'Square perfume bottle with a violet cap', kind: 'product', bg: '#efe8f6', draw: perfume('#e8e1f2', '#b69ad8', '#5b3f8c') },
  'book-blue.png': { alt: 'Hardback novel with a deep blue cover', kind: 'product', bg: '#e5ebf3', draw: book('#27496d', '#1b3350', '#f2d58c') },
  'book-green.png': { alt: 'Paperback with a forest green cover and a sun motif', kind: 'product', bg: '#e8efe6', draw: book('#2f5d50', '#1f4038', '#f6c96b') },
  'book-red.png': { alt: 'Thriller with a red cover and a black moon', kind: 'product', bg: '#f6e6e3', draw: book('#b8322a', '#8a2019', '#23232a') },
  'book-stack.png': { alt: 'Stack of four colourful books', kind: 'product', bg: '#f4efe6', draw: bookStack(['#27496d', '#c0504d', '#e5b84c', '#3f7f5f']) },
  'dog-bowl.png': { alt: 'Blue dog bowl full of kibble', kind: 'product', bg: '#e6f0f8', draw: dogBowl('#3d7cc9', '#a8703f') },
  'yarn-ball.png': { alt: 'Pink ball of yarn cat toy', kind: 'product', bg: '#fbeef3', draw: yarn('#f28bb0', '#c75a85') },
  'pet-bed.png': { alt: 'Round grey pet bed with a cream cushion', kind: 'product', bg: '#f0eeea', draw: petBed('#8d8f96', '#f2e6d0') },
  'headphones.png': { alt: 'Over-ear headphones in graphite', kind: 'product', bg: '#e9ebef', draw: headphones('#2a2d34', '#4a4f5a') },
  'headphones-white.png': { alt: 'White wireless headphones with orange cushions', kind: 'product', bg: '#fdf0e6', draw: headphones('#f4f4f4', '#f08a4b') },
  'phone.png': { alt: 'Smartphone showing a colourful home screen', kind: 'product', bg: '#e8ecf7', draw: phone('#2a2d34', '#5b6cf0', '#ffb347') },
  'smartwatch.png': { alt: 'Smartwatch with an activity ring and a teal strap', kind: 'product', bg: '#e2f4f2', draw: smartwatch('#1f9e91', '#101216', '#7cf29c') },
  'speaker.png': { alt: 'Portable speaker in charcoal fabric', kind: 'product', bg: '#ecebf0', draw: speaker('#3b3d46', '#6b6e7a') },
  'laptop.png': { alt: 'Silver laptop with a blue screen', kind: 'product', bg: '#eef1f5', draw: laptop('#b9bec8', '#3459c8', '#ffcc4d') },
  'chair.png': { alt: 'Mustard lounge chair with oak legs', kind: 'product', bg: '#f7f0dd', draw: chair('#d9a52b', '#8a5a3c') },
  'chair-teal.png': { alt: 'Teal velvet armchair on walnut legs', kind: 'product', bg: '#e3f0ef', draw: chair('#2a7f7a', '#5a3a22') },
  'lamp.png': { alt: 'Table lamp with a terracotta shade', kind: 'product', bg: '#f6ebe3', draw: lamp('#d0704b', '#3a3a3a') },
  'plant-pot.png': { alt: 'Leafy plant in a terracotta pot', kind: 'product', bg: '#eaf3e6', draw: plantPot('#c96f4a', '#3d9b55') },
  'candle.png': { alt: 'Scented candle in an amber glass jar', kind: 'product', bg: '#fbf0e0', draw: candle('#c98a3c', '#f6eedd', '#fff8ec') },
  'yoga-mat.png': { alt: 'Rolled lilac yoga mat with straps', kind: 'product', bg: '#f0ebf7', draw: yogaMat('#a58ad6', '#4a3a6b') },
  'dumbbell.png': { alt: 'Hexagonal dumbbell in black and red', kind: 'product', bg: '#f2e9e8', draw: dumbbell('#23232a', '#c8102e') },
  'water-bottle.png': { alt: 'Insulated sports bottle in ocean blue', kind: 'product', bg: '#e4f0fa', draw: bottle('#2f7fd0', '#23232a') },
  'backpack.png': { alt: 'Orange hiking backpack with a front pocket', kind: 'product', bg: '#fbeee2', draw: backpack('#e4703a', '#2f4a3f') },
  'pizza.png': { alt: 'Pepperoni pizza with basil leaves', kind: 'product', bg: '#fbeee2', draw: pizza('#d9a05b', '#c8402e', '#b8322a') },
  'salad-bowl.png': { alt: 'Fresh salad with tomatoes and peppers in a bowl', kind: 'product', bg: '#eef6e8', draw: saladBowl('#ffffff') },
  'burger.png': { alt: 'Cheeseburger with lettuce on a sesame bun', kind: 'product', bg: '#fdf1df', draw: burger('#e0a458') },
  'suitcase.png': { alt: 'Teal cabin suitcase with wheels', kind: 'product', bg: '#e4f1f1', draw: suitcase('#2a8c8c', '#f2d58c') },
  'gift-box.png': { alt: 'Red gift box tied with a gold ribbon', kind: 'product', bg: '#fbe7e4', draw: giftBox('#d9453b', '#f5c94d') },
  'hero-beach.png': { alt: 'Sunny beach with a palm tree and a red parasol', kind: 'hero', bg: '#7fd3f0', draw: beach },
  'hero-mountains.png': { alt: 'Snowy mountains at sunset above a pine forest', kind: 'hero', bg: '#f7c59f', draw: mountains },
  'hero-sale.png': { alt: 'Bright shapes around a big percent sign', kind: 'hero', bg: '#ffd84d', draw: saleBurst('#ffd84d', ['#ff4f5e', '#2b59c3', '#ffffff', '#ff9f1c']) },
  'hero-sale-pastel.png': { alt: 'Pastel shapes around a percent sign', kind: 'hero', bg: '#f3e8ff', draw: saleBurst('#f3e8ff', ['#8f5bd6', '#ffb3c7', '#a6e3d4', '#fff1a8']) },
  'hero-black-friday.png': { alt: 'Price tags in yellow, red and white on a black background', kind: 'hero', bg: '#0d0d0f', draw: blackFriday },
  'hero-black-friday-burst.png': { alt: 'Neon shapes around a percent sign on black', kind: 'hero', bg: '#111114', draw: saleBurst('#111114', ['#ff2e63', '#08d9d6', '#eaeaea', '#f9ed69'], true) },
  'hero-gifts.png': { alt: 'Wrapped gift boxes under a starry sky', kind: 'hero', bg: '#1f3d36', draw: gifts },
  'hero-coffee.png': { alt: 'Steaming cup of coffee on a table scattered with beans', kind: 'hero', bg: '#3b2a22', draw: coffeeScene },
  'hero-flowers.png': { alt: 'Spring flowers in pink, white and violet', kind: 'hero', bg: '#fde7ef', draw: flowers },
  'hero-books.png': { alt: 'Two shelves full of colourful books', kind: 'hero', bg: '#efe6d8', draw: bookshelf },
  'hero-workspace.png': { alt: 'Desk with a monitor, a plant and a mug', kind: 'hero', bg: '#e6eef7', draw: workspace },
  'hero-anniversary.png': { alt: 'Birthday cake with five candles and balloons', kind: 'hero', bg: '#fff1e0', draw: anniversary },
  'hero-dog.png': { alt: 'Happy dog in a park next to a red ball', kind: 'hero', bg: '#bfe6d0', draw: dogPark },
  'hero-kitchen.png': { alt: 'Pizza and plates of food on a kitchen table', kind: 'hero', bg: '#fff4e6', draw: kitchen },
}

/** The alt text of an asset; throws for a file that is not drawn here. */
export function assetAlt(name: string): string {
  const asset = EMAIL_ASSETS[name]
  if (!asset) throw new Error(`unknown email asset ${name}`)
  return asset.alt
}
