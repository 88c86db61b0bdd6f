import { describe, expect, it } from 'vitest'
import { loggableUrl } from '../../server/process/logger.js'

const LIVE = '/giffer/countdown/live.gif?kind=evergreen&for=86400&font=roboto&sig=Zzbs6Qr0R9B2rI_fIdxjkbZo'
/** The same link as an email editor that escapes its `&` twice hands it on. */
const LIVE_ESCAPED = LIVE.replaceAll('&', '&amp;')
/** Every piece of the recipient's address, plain or encoded, that a line must not carry. */
const PIECES = ['anna', 'shop', 'example', '%40', '%2B']

describe('loggableUrl', () => {
  it.each([
    ['percent-encoded', `${LIVE}&r=anna%2Bshop%40example.com`, `${LIVE}&r=[redacted]`],
    ['as the merge tag wrote it', `${LIVE}&r=anna+shop@example.com`, `${LIVE}&r=[redacted]`],
    ['with a percent-encoded name', `${LIVE}&%72=anna%2Bshop%40example.com`, `${LIVE}&%72=[redacted]`],
    ['with a name in capitals', `${LIVE}&R=anna%40example.com&%52=shop`, `${LIVE}&R=[redacted]&%52=[redacted]`],
    ['given twice', `${LIVE}&r=anna%40example.com&r=shop%40example.com`, `${LIVE}&r=[redacted]&r=[redacted]`],
    ['with array suffixes', `${LIVE}&r[]=anna%40example.com&r[0]=shop&r%5B1%5D=example`, `${LIVE}&r[]=[redacted]&r[0]=[redacted]&r%5B1%5D=[redacted]`],
    ['with spaces around the name', `${LIVE}&+r=anna&%20r%20=shop`, `${LIVE}&+r=[redacted]&%20r%20=[redacted]`],
    ['first in the query', '/giffer/countdown/live.png?r=anna%40example.com&sig=abc', '/giffer/countdown/live.png?r=[redacted]&sig=abc'],
    ['holding = signs', `${LIVE}&r=anna=shop=example`, `${LIVE}&r=[redacted]`],
    ['running past a #', `${LIVE}&r=anna#shop@example.com`, `${LIVE}&r=[redacted]`],
    ['badly encoded', `${LIVE}&r=anna%E0%A4%A%shop%40example.com%`, `${LIVE}&r=[redacted]`],
    ['behind an & escaped twice', `${LIVE_ESCAPED}&amp;r=anna%2Bshop%40example.com`, `${LIVE_ESCAPED}&amp;r=[redacted]`],
    ['behind an & escaped over and over, in capitals', `${LIVE}&AMP;amp;Amp;R=anna%40shop.example.com`, `${LIVE}&AMP;amp;Amp;R=[redacted]`],
    ['behind an escaped & with a percent-encoded name', `${LIVE_ESCAPED}&amp;%72=anna%40shop.example.com`, `${LIVE_ESCAPED}&amp;%72=[redacted]`],
    ['first in the query, behind an escaped &', '/giffer/countdown/live.png?amp;r=anna%40example.com&amp;sig=abc', '/giffer/countdown/live.png?amp;r=[redacted]&amp;sig=abc'],
    ['holding an unencoded &', `${LIVE}&r=anna&shop@example.com`, `${LIVE}&r=[redacted]`],
    ['holding unencoded &s, before other parameters', '/giffer/countdown/live.gif?kind=evergreen&r=anna&shop&amp;example.com&&sig=abc', '/giffer/countdown/live.gif?kind=evergreen&r=[redacted]&sig=abc'],
  ])('hides a recipient key %s, value and all', (_how, url, logged) => {
    const line = loggableUrl(url)
    expect(line).toBe(logged)
    for (const piece of PIECES) expect(line).not.toContain(piece)
  })

  it('hides a recipient’s own date and the secrets, by any spelling of their names', () => {
    expect(loggableUrl('/giffer/countdown/live.gif?kind=per-recipient&sig=x&until=2031-02-03T04%3A05%3A06Z')).toBe('/giffer/countdown/live.gif?kind=per-recipient&sig=x&until=[redacted]')
    expect(loggableUrl('/reset/new/?Token=abc&%70assword=hunter2&UNTIL=2031-02-03')).toBe('/reset/new/?Token=[redacted]&%70assword=[redacted]&UNTIL=[redacted]')
    expect(loggableUrl('/app/api/v1/partners/track?r=partner7&e=unique')).toBe('/app/api/v1/partners/track?r=[redacted]&e=unique')
    expect(loggableUrl('/giffer/countdown/live.gif?kind=per-recipient&amp;sig=x&amp;until=2031-02-03T04%3A05%3A06Z')).toBe('/giffer/countdown/live.gif?kind=per-recipient&amp;sig=x&amp;until=[redacted]')
    expect(loggableUrl('/reset/new/?a=1&amp;Token=abc&amp;amp;password=hunter2')).toBe('/reset/new/?a=1&amp;Token=[redacted]&amp;amp;password=[redacted]')
  })

  it('keeps every other parameter, those with a name like a hidden one too', () => {
    for (const url of [
      '/pricing/?currency=USD',
      '/?ref=partner7&utm_source=mail&tz=UTC&rr=1&r2=x&tokens=2&q=r&x=until',
      '/giffer/countdown/live.gif?kind=recurring&at=14%3A00&weekdays=1%2C2&tz=Europe%2FBerlin&sig=abc',
      // Names the server does not read as `r`: an encoded `+` is a plus, a malformed escape stays as written.
      '/x?r%2B=a&%7%72=b&r%00=c',
      '/x?r&token',
      // Escaped `&`s before ordinary names, and names that only begin like an escape.
      LIVE_ESCAPED,
      '/x?amp;ref=1&amp=2&ampr=3&amp;rr=1&amp;amp;tokens=2&amp;',
      // A part without `=` is kept unless it follows a hidden value.
      '/x?flag&a=1&r&b=2&token&c',
      '/r=anna/',
      '/x?',
    ]) {
      expect(loggableUrl(url)).toBe(url)
    }
  })
})

describe('names written with something before the letters', () => {
  it.each([
    ['/x?id=1&amp%3Br=anna@x.com&sig=a', '/x?id=1&amp%3Br=[redacted]&sig=a'],
    ['/x?id=1&%61mp;r=anna@x.com&sig=a', '/x?id=1&%61mp;r=[redacted]&sig=a'],
    ['/x?id=1&;r=anna@x.com', '/x?id=1&;r=[redacted]'],
    ['/x?id=1&%EF%BB%BFr=anna@x.com&sig=a', '/x?id=1&%EF%BB%BFr=[redacted]&sig=a'],
    ['/x?id=1&\ufeffr=anna@x.com&sig=a', '/x?id=1&\ufeffr=[redacted]&sig=a'],
    ['/x?id=1&_until=2026-12-01&sig=a', '/x?id=1&_until=[redacted]&sig=a'],
  ])('hides %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged)
  })

  it.each([['/x?id=1&sort=r&page=2'], ['/x?id=1&br=3&ar=4&tr=5']])('keeps %s as it is', (url) => {
    expect(loggableUrl(url)).toBe(url)
  })
})
