/**
 * React DOM makes five errors as its module loads: markers it throws and recognises later
 * (suspending, a hydration mismatch). Making an Error records the stack, and where a debugger or a
 * page-speed tool is attached to the page (Lighthouse, DevTools, test drivers) the browser then
 * looks up every frame's line and column; for a frame in React DOM's module or in the app's
 * bundle that means reading the whole module again: one frame of 250–350 ms on a phone's CPU.
 * Made here, by the small boot script inlined in the page before the app is fetched, they cost
 * nothing; the build has React DOM take them from here (scripts/lib/react-dom-errors.ts) and make
 * its own when none are left.
 */
export const PREPARED_ERRORS_KEY = 'poplift.react-dom-module-errors'

/** The codes of those React DOM makes as it loads; the build checks it finds each of them once. */
export const REACT_DOM_MODULE_ERRORS = [519, 460, 474, 542, 461] as const

export function prepareReactDomErrors() {
  ;(globalThis as Record<symbol, unknown>)[Symbol.for(PREPARED_ERRORS_KEY)] = REACT_DOM_MODULE_ERRORS.map(() => new Error())
}
