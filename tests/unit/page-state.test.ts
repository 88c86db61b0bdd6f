import { describe, expect, it } from 'vitest'
import type { StaticHandlerContext } from 'react-router'
import { readPageState, serializePageState } from '../../shared/router-state.js'

const context = (loaderData: Record<string, unknown>, errors: StaticHandlerContext['errors'] = null) =>
  ({ loaderData, errors }) as StaticHandlerContext

describe('page state', () => {
  it('cannot close its script tag or start a comment, whatever the data holds', () => {
    const json = serializePageState(context({ page: { html: '</script><script>alert(1)</script><!--', sep: '\u2028' } }))
    expect(json).not.toMatch(/<|>|\u2028/)
    expect(readPageState(json).loaderData).toEqual({ page: { html: '</script><script>alert(1)</script><!--', sep: '\u2028' } })
  })

  it('turns route error responses back into what error boundaries read, and hides server error details', () => {
    const notFound = { status: 404, statusText: 'Not Found', data: null, internal: false }
    const json = serializePageState(context({}, { blog: notFound, home: new Error('database password is hunter2') }))
    expect(json).not.toContain('hunter2')
    const { errors } = readPageState(json)
    expect(errors?.blog).toEqual(notFound)
    expect(errors?.home).toBeInstanceOf(Error)
  })
})
