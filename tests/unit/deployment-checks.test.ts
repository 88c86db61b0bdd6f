import { describe, expect, it } from 'vitest'
import { checkDeployment, type DeploymentSettings } from '../../server/process/deployment-checks.js'

/** A public site with everything a real deployment needs: no refusal, no warning. */
const complete: DeploymentSettings = {
  PUBLIC_URL: 'https://www.example.com',
  NODE_ENV: 'production',
  GIFFER_SECRET: 'a-secret-of-the-deployment',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
  MAIL_FROM: 'Poplift <no-reply@example.com>',
  DASHBOARD_OUTBOX: false,
  METRICS_TOKEN: 'a-token-for-the-scraper',
}

describe('the configuration checked together at start', () => {
  it('finds nothing to say of a complete public deployment', () => {
    expect(checkDeployment(complete)).toEqual({ refusals: [], warnings: [] })
  })

  it('checks nothing on a local address, whatever is missing', () => {
    for (const PUBLIC_URL of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://shop.localhost']) {
      expect(checkDeployment({ PUBLIC_URL, NODE_ENV: 'development', MAIL_FROM: 'x@poplift.localhost', DASHBOARD_OUTBOX: true, APP_URL: 'http://localhost:4000' })).toEqual({ refusals: [], warnings: [] })
    }
  })

  it.each([
    ['no GIFFER_SECRET for an in-process image service', { GIFFER_SECRET: undefined }, /^GIFFER_SECRET: required/],
    ['an APP_URL on this machine', { APP_URL: 'http://localhost:4000/' }, /^APP_URL: http:\/\/localhost:4000\/ is this machine/],
    ['a GIFFER_PUBLIC_URL on this machine', { GIFFER_PUBLIC_URL: 'http://127.0.0.1:3001' }, /^GIFFER_PUBLIC_URL: .* live timers in emails/],
    ['uploads posted to a bucket on this machine', { S3_BUCKET: 'uploads', S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^S3_PUBLIC_ENDPOINT: browsers would post uploads to http:\/\/127\.0\.0\.1:9000/],
    ['a sender no mail server accepts', { MAIL_FROM: 'Poplift <no-reply@poplift.localhost>' }, /^MAIL_FROM: .* reset links would not arrive/],
  ] as const)('refuses %s, naming the variable', (_case, change, message) => {
    const { refusals } = checkDeployment({ ...complete, ...change })
    expect(refusals).toEqual([expect.stringMatching(message)])
  })

  it('needs no GIFFER_SECRET when the image service runs elsewhere, and no sender when the dashboard does', () => {
    expect(checkDeployment({ ...complete, GIFFER_SECRET: undefined, GIFFER_URL: 'http://giffer.internal:3001' }).refusals).toEqual([])
    expect(checkDeployment({ ...complete, SMTP_URL: undefined, MAIL_FROM: 'x@poplift.localhost', DASHBOARD_URL: 'http://dash.internal/app' })).toEqual({ refusals: [], warnings: [] })
  })

  it('accepts an internal S3_ENDPOINT when browsers have their own S3_PUBLIC_ENDPOINT', () => {
    expect(checkDeployment({ ...complete, S3_BUCKET: 'uploads', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_PUBLIC_ENDPOINT: 'https://files.example.com' }).refusals).toEqual([])
  })

  it('warns of what an operator may choose: an open /metrics, plain http, no SMTP, a public outbox, a development build', () => {
    const { refusals, warnings } = checkDeployment({ ...complete, PUBLIC_URL: 'http://www.example.com', METRICS_TOKEN: undefined, SMTP_URL: undefined, DASHBOARD_OUTBOX: true, NODE_ENV: 'development' })
    expect(refusals).toEqual([])
    expect(warnings).toEqual([
      'METRICS_TOKEN is not set: /metrics is open to anyone who finds it.',
      'PUBLIC_URL is plain http: cookies are not Secure and there is no HSTS.',
      'SMTP_URL is not set: account mail (reset links) stays in the local outbox and reaches nobody.',
      'DASHBOARD_OUTBOX is on: /app/outbox/ shows every reset link to whoever opens it.',
      'NODE_ENV is development: development pages (the outbox) are on and errors say more.',
    ])
  })
})
