import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/process/config.js'

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
    expect(loadConfig({ PORT: '4100', PUBLIC_URL: 'https://poplift.example/', GIFFER_SECRET: 'a-secret-of-the-deployment' }).publicOrigin).toBe('https://poplift.example')
  })

  it('refuses a public PUBLIC_URL without GIFFER_SECRET, saying why, unless the image service is elsewhere', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://poplift.example' })).toThrow(ConfigError)
    expect(() => loadConfig({ PUBLIC_URL: 'https://poplift.example' })).toThrow(/^GIFFER_SECRET: required .*Live timers sent in emails are signed with it/)
    expect(() => loadConfig({ PUBLIC_URL: 'https://poplift.example', GIFFER_URL: 'http://giffer.internal:3001' })).not.toThrow()
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://site.localhost', 'http://[::1]:3000']) {
      expect(() => loadConfig({ PUBLIC_URL: local })).not.toThrow()
    }
  })

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ GIFFER_URL: 'not a url' })).toThrow(/GIFFER_URL/)
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })

  it('reads TRUST_PROXY as Express takes it: a hop count, true or false, or addresses and subnets', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback')
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8')
    expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).toThrow(/TRUST_PROXY: must be a number of hops/)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DASHBOARD_URL: '' }).DASHBOARD_URL).toBeUndefined()
  })
})
