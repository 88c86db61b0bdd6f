import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../server/app.js'
import { loadConfig } from '../../server/process/config.js'
import { pino } from 'pino'
import { ROOT, testApp } from './app.js'

describe('/giffer in the site', () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-data-'))
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: stateDir, GIFFER_WORKERS: '1' }, ROOT)
  const site = createApp(config, { logger: pino({ level: 'silent' }) })
  afterAll(() => site.close())

  it('is served in-process when GIFFER_URL is unset, without a canonical redirect or cookies', async () => {
    const response = await request(site.app).get('/giffer/fonts').expect(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('draws a text preview through the site', async () => {
    const fonts = (await request(site.app).get('/giffer/fonts').expect(200)).body
    const font = JSON.stringify(fonts).match(/"id":"([^"]+)"/)?.[1]
    expect(font).toBeTruthy()
    const response = await request(site.app)
      .get('/giffer/text/preview')
      .query({ text: 'Hello', font, font_size: 32, font_weight: 'regular', text_align: 'center', lineheight: 1.2, color: '#111111', padding: 7, scale: 2 })
      .expect(200)
    expect(response.headers['content-type']).toBe('image/png')
  })

  it('answers bad generator input with a 400 naming the field', async () => {
    const response = await request(site.app).get('/giffer/text/preview').query({ text: 'x', font: 'roboto', font_size: 'huge' }).expect(400)
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', field: 'font_size' })
  })
})

describe('/giffer proxied to GIFFER_URL', () => {
  it('forwards with the prefix stripped', async () => {
    const seen: string[] = []
    const upstream = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      res.setHeader('Content-Type', 'image/gif')
      res.end('GIF89a')
    })
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    const { port } = upstream.address() as AddressInfo
    try {
      const app = testApp({ GIFFER_URL: `http://127.0.0.1:${port}` })
      const response = await request(app).get('/giffer/text/preview?text=Hi').expect(200)
      expect(response.headers['content-type']).toBe('image/gif')
      expect(seen).toEqual(['GET /text/preview?text=Hi'])
    } finally {
      upstream.close()
    }
  })

  it('answers 502 JSON when the image service is down', async () => {
    const app = testApp({ GIFFER_URL: 'http://127.0.0.1:9' })
    const response = await request(app).get('/giffer/fonts').expect(502)
    expect(response.body.error.code).toBe('upstream_unavailable')
  })
})
