/**
 * The build's half of client/react-dom-errors.ts: in React DOM's client module, the five errors
 * it makes as it loads are taken from those the boot script made, when there are any. The build
 * fails if React DOM no longer makes exactly these, so an upgrade cannot quietly undo it.
 */
import type { Plugin } from 'rolldown'
import { PREPARED_ERRORS_KEY, REACT_DOM_MODULE_ERRORS } from '../../client/react-dom-errors.js'

const REACT_DOM_CLIENT = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/

/** Hoisted, so the module's top-level code can call it wherever it is put. */
const TAKE_PREPARED = `
function __takePrepared(message) {
  var prepared = globalThis[Symbol.for(${JSON.stringify(PREPARED_ERRORS_KEY)})];
  var error = prepared && prepared.pop();
  if (!error) return Error(message);
  error.message = message;
  return error;
}
`

export const reactDomPreparedErrors: Plugin = {
  name: 'react-dom-prepared-errors',
  transform(code, id) {
    if (!REACT_DOM_CLIENT.test(id)) return null
    let result = code
    for (const errorCode of REACT_DOM_MODULE_ERRORS) {
      const made = `Error(formatProdErrorMessage(${errorCode}))`
      if (result.split(made).length !== 2) this.error(`react-dom-client.production.js should make ${made} once as it loads; React DOM changed: see client/react-dom-errors.ts`)
      result = result.replace(made, `__takePrepared(formatProdErrorMessage(${errorCode}))`)
    }
    // Appended, so no line of the module moves.
    return { code: result + TAKE_PREPARED, map: null }
  },
}
