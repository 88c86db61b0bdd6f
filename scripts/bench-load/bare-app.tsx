import { useState } from 'react'
import { Link, useLoaderData, type RouteObject } from 'react-router'

/**
 * The reference page of `npm run bench:load`: React 19 and React Router 7 with nothing else,
 * sixty links and a button, its data handed over as the site's pages hand theirs (a loader on
 * the server, hydration data in the browser). Both sides render it from this module.
 */
export const BARE_PATH = '/bench-load-bare/'

interface BareData {
  links: { href: string; text: string }[]
}

function BarePage() {
  const { links } = useLoaderData() as BareData
  const [clicks, setClicks] = useState(0)
  return (
    <main>
      <h1>Sixty links and a button</h1>
      <button type="button" onClick={() => setClicks((count) => count + 1)}>
        Clicked {clicks} times
      </button>
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <Link to={link.href}>{link.text}</Link>
          </li>
        ))}
      </ul>
    </main>
  )
}

export const bareRoutes: RouteObject[] = [
  {
    id: 'bare',
    path: BARE_PATH,
    // Runs on the server only: the browser starts from the hydration data.
    loader: (): BareData => ({ links: Array.from({ length: 60 }, (_, index) => ({ href: `${BARE_PATH}${index + 1}/`, text: `Link number ${index + 1}` })) }),
    Component: BarePage,
  },
]
