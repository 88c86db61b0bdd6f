import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, type HydrationState } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { bareRoutes } from './bare-app.js'

/** The reference page's browser entry: the data router hydrates, in a transition as the site's entry does. */
const hydrationData = JSON.parse(document.getElementById('bare-state')?.textContent ?? '{}') as HydrationState
const router = createBrowserRouter(bareRoutes, { hydrationData })
startTransition(() => {
  hydrateRoot(document.getElementById('root')!, <RouterProvider router={router} />)
})
