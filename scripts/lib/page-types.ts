/**
 * One page of each type the site has, for the measurements that go through them all
 * (`npm run bench:load`, `npm run lighthouse`).
 */

/** How long a listing may take to come (a first render of a large page included). */
const LISTING_TIMEOUT_MS = 30_000

/**
 * One page of each type, by name and path, the ids and slugs taken from the site's own links;
 * only those named (a path, or part of a name) when `only` names some. `stop` ends the wait for
 * a listing, as each does after 30 s.
 */
export async function pageTypes(site: string, only: readonly string[] = [], stop?: AbortSignal): Promise<{ name: string; path: string }[]> {
  const linkOn = async (listing: string, pattern: RegExp) => {
    const timeout = AbortSignal.timeout(LISTING_TIMEOUT_MS)
    const html = await (await fetch(site + listing, { signal: stop ? AbortSignal.any([stop, timeout]) : timeout })).text()
    const found = [...html.matchAll(/href="([^"]+)"/g)].map(([, href]) => href!).find((href) => pattern.test(href))
    if (!found) throw new Error(`no link matching ${pattern} on ${listing}`)
    return found
  }
  return [
    { name: 'home', path: '/' },
    { name: 'pricing', path: '/pricing/' },
    { name: 'blog post', path: await linkOn('/blog/', /^\/blog\/[^/]+\/[^/]+\/$/) },
    { name: 'widget gallery', path: '/p/' },
    { name: 'widget template', path: await linkOn('/p/', /^\/p\/[a-z0-9]{6,}$/) },
    { name: 'email gallery', path: '/e/' },
    { name: 'email template', path: await linkOn('/e/', /^\/e\/[a-z0-9]{6,}$/) },
    { name: 'subject lines', path: '/ai-subject-line-generator/' },
    { name: 'scrolling text', path: '/email-scrolling-text-gif-generator/' },
    { name: 'calligraphy', path: '/calligraphy-text-generator/' },
    { name: 'countdown timer', path: '/email-countdown-timer-generator/' },
    { name: 'slideshow', path: '/image-slideshow-gif-generator/' },
    { name: 'log-in', path: '/login/' },
  ].filter((page) => !only.length || only.some((wanted) => page.path === wanted || page.name.includes(wanted)))
}

