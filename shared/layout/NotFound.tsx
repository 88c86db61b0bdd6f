import { NotFoundMessage } from './PageError.js'

/** The catch-all route: its loader answers 404, so this only draws if that answer is missing. */
export default function NotFound() {
  return <NotFoundMessage />
}
