import request from 'supertest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dashboardSite } from './helpers.js'
import { dashboardStaticFiles } from '../../server/dashboard/static-files.js'

const { app, dashboard } = dashboardSite()

/**
 * A broken deploy: the preview's own stylesheet and script cannot be read. This file has modules
 * of its own, so no preview of its process has read them before.
 */
const unreadable = () => vi.spyOn(dashboardStaticFiles(), 'text').mockRejectedValue(new Error('ENOENT: no such file, widget-preview.js'))
afterEach(() => vi.restoreAllMocks())

describe('a widget preview whose own files cannot be read', () => {
  it('still answers a visitor’s mistake with its 4xx page, unstyled, and says so once', async () => {
    const error = vi.spyOn(dashboard!.context.logger, 'error')
    unreadable()
    const missing = await request(app).get('/app/preview/zzzzzzzz').expect(404)
    expect(missing.text).toContain('<h1>No such template</h1>')
    expect(missing.text).not.toContain('<style')
    expect(missing.headers['content-security-policy']).toContain("style-src 'none'")
    const theme = await request(app).get('/app/preview/wt8mybhg?theme=blue').expect(400)
    expect(theme.text).toContain('theme: must be light or dark.')
    expect(theme.text).not.toContain('<style')
    expect(theme.headers['content-security-policy']).toContain("style-src 'none'")
    await request(app).get('/app/preview/yyyyyyyy').expect(404)
    // Bad addresses can be many: the broken files are logged once, not once a request.
    const said = error.mock.calls.filter(([, message]) => String(message).includes('cannot be read or carried inline'))
    expect(said).toHaveLength(1)
  })

  it('fails a real template’s preview, and reads the files again on the next request', async () => {
    const text = unreadable()
    await request(app).get('/app/preview/wt8mybhg').expect(500)
    text.mockRestore()
    const response = await request(app).get('/app/preview/wt8mybhg').expect(200)
    expect(response.text).toContain('<style>')
  })
})
