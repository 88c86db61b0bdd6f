import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config.js'

describe('loadConfig', () => {
  it('starts with no variables set, on port 3000', () => {
    const config = loadConfig({}, '/srv/site')
    expect(config.PORT).toBe(3000)
    expect(config.publicOrigin).toBe('http://localhost:3000')
    expect(config.stateDir).toBe('/srv/site/.data')
    expect(config.contentDir).toBe('/srv/site/data')
    expect(config.DASHBOARD_URL).toBeUndefined()
  })

  it('points its public URL at the port it listens on when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '4100' }).publicOrigin).toBe('http://localhost:4100')
    expect(loadConfig({ PORT: '4100', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:4100')
    expect(loadConfig({ PORT: '4100', PUBLIC_URL: 'https://poplift.example/' }).publicOrigin).toBe('https://poplift.example')
  })

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ GIFFER_URL: 'not a url' })).toThrow(/GIFFER_URL/)
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DASHBOARD_URL: '' }).DASHBOARD_URL).toBeUndefined()
  })
})
