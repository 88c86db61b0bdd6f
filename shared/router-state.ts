import { isRouteErrorResponse, type HydrationState, type StaticHandlerContext } from 'react-router'

/** What the browser needs to hydrate the server's page: each route's loader data and error, as JSON. */
interface PageState {
  loaderData: Record<string, unknown>
  /** The answer to a form posted without JavaScript, by route id. */
  actionData?: Record<string, unknown> | null
  errors: Record<string, SerializedError> | null
}

type SerializedError =
  | { __type: 'RouteErrorResponse'; status: number; statusText: string; data: unknown; internal: boolean }
  | { __type: 'Error'; message: string }

function serializeErrors(errors: StaticHandlerContext['errors']): PageState['errors'] {
  if (!errors) return null
  return Object.fromEntries(
    Object.entries(errors).map(([routeId, error]): [string, SerializedError] => [
      routeId,
      isRouteErrorResponse(error)
        ? { __type: 'RouteErrorResponse', status: error.status, statusText: error.statusText, data: error.data, internal: Boolean((error as { internal?: boolean }).internal) }
        : // Server error details stay in the server log.
          { __type: 'Error', message: 'Unexpected Server Error' },
    ]),
  )
}

/**
 * JSON for a `<script type="application/json">`: it never runs, and escaping `<`, `>`, `&` and the
 * line separators means no string in the data can close the tag or break the parse.
 */
export function serializePageState(context: StaticHandlerContext): string {
  const state: PageState = { loaderData: context.loaderData, actionData: context.actionData, errors: serializeErrors(context.errors) }
  return JSON.stringify(state).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The server's page state, with route errors turned back into what the error boundaries expect. */
export function readPageState(json: string): HydrationState {
  const state = JSON.parse(json) as PageState
  const errors = state.errors
    ? Object.fromEntries(
        Object.entries(state.errors).map(([routeId, error]) => [
          routeId,
          error.__type === 'RouteErrorResponse'
            ? { status: error.status, statusText: error.statusText, data: error.data, internal: error.internal }
            : new Error(error.message),
        ]),
      )
    : null
  return { loaderData: state.loaderData, actionData: state.actionData ?? null, errors }
}
