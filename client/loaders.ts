import { data } from 'react-router'
import type { LoaderFor } from '../shared/routes.js'

/**
 * In the browser every route's data comes from the server that rendered the page: the same
 * loaders run there and answer `?_data={routeId}` with JSON.
 */
export const clientLoaderFor: LoaderFor = (routeId) => async ({ request }) => {
  const url = new URL(request.url)
  url.searchParams.set('_data', routeId)
  const response = await fetch(url, { signal: request.signal, headers: { Accept: 'application/json' } })
  if (!response.ok) throw data(null, { status: response.status, statusText: response.statusText })
  return response.json()
}
