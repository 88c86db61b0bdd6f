import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { PREPARED_ERRORS_KEY, prepareReactDomErrors, REACT_DOM_MODULE_ERRORS } from '../../client/react-dom-errors.js'
import { reactDomPreparedErrors } from '../../scripts/lib/react-dom-errors.js'
import { root } from '../../scripts/lib/server-process.js'

const REACT_DOM_CLIENT = path.join(root, 'node_modules/react-dom/cjs/react-dom-client.production.js')

type Transform = (this: { error(message: string): never }, code: string, id: string) => { code: string } | null
const transform = reactDomPreparedErrors.transform as unknown as Transform
const context = {
  error(message: string): never {
    throw new Error(message)
  },
}

describe("React DOM's module-level errors", () => {
  const source = fs.readFileSync(REACT_DOM_CLIENT, 'utf8')

  it('are taken from those the boot script prepared, each site once, no line moved', () => {
    const result = transform.call(context, source, REACT_DOM_CLIENT)!
    for (const code of REACT_DOM_MODULE_ERRORS) {
      expect(result.code).not.toContain(`Error(formatProdErrorMessage(${code}))`)
      expect(result.code.split(`__takePrepared(formatProdErrorMessage(${code}))`)).toHaveLength(2)
    }
    const lines = source.split('\n')
    expect(result.code.split('\n').slice(0, lines.length).map((line, index) => line === lines[index] || line.includes('__takePrepared('))).not.toContain(false)
  })

  it('leave every other module alone', () => {
    expect(transform.call(context, 'var e = Error(formatProdErrorMessage(460))', '/x/node_modules/react-dom/cjs/react-dom.production.js')).toBeNull()
  })

  it('stop the build when React DOM no longer makes one of them', () => {
    const changed = source.replace('Error(formatProdErrorMessage(461))', 'Error(formatProdErrorMessage(999))')
    expect(() => transform.call(context, changed, REACT_DOM_CLIENT)).toThrow(/formatProdErrorMessage\(461\).*React DOM changed/)
  })

  it('hand out the prepared errors with React’s message, then make new ones', () => {
    const { code } = transform.call(context, 'module.exports = [Error(formatProdErrorMessage(519)), Error(formatProdErrorMessage(460)), Error(formatProdErrorMessage(474)), Error(formatProdErrorMessage(542)), Error(formatProdErrorMessage(461))]', REACT_DOM_CLIENT)!
    const sandbox = { module: { exports: [] as Error[] }, formatProdErrorMessage: (n: number) => `Minified React error #${n}`, globalThis: {} as Record<symbol, unknown> }
    sandbox.globalThis = sandbox as unknown as Record<symbol, unknown>
    vm.runInNewContext(code, sandbox)
    expect(sandbox.module.exports.map((error) => error.message)).toEqual(REACT_DOM_MODULE_ERRORS.map((n) => `Minified React error #${n}`))

    const holder = globalThis as Record<symbol, unknown>
    prepareReactDomErrors()
    const prepared = holder[Symbol.for(PREPARED_ERRORS_KEY)] as Error[]
    delete holder[Symbol.for(PREPARED_ERRORS_KEY)]
    expect(prepared).toHaveLength(REACT_DOM_MODULE_ERRORS.length)
    const withPrepared = { ...sandbox, module: { exports: [] as Error[] } }
    ;(withPrepared as unknown as Record<symbol, unknown>)[Symbol.for(PREPARED_ERRORS_KEY)] = [...prepared]
    withPrepared.globalThis = withPrepared as unknown as Record<symbol, unknown>
    vm.runInNewContext(code, withPrepared)
    expect(new Set(withPrepared.module.exports)).toEqual(new Set(prepared))
    expect(withPrepared.module.exports.map((error) => error.message).sort()).toEqual(REACT_DOM_MODULE_ERRORS.map((n) => `Minified React error #${n}`).sort())
  })
})
