import { EventEmitter } from 'node:events'
import type http from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { collectWhenQuiet } from '../../server/process/quiet-gc.js'

/** A server and responses reduced to the events the collector listens to. */
function fakeServer() {
  const server = new EventEmitter()
  const request = () => {
    const res = new EventEmitter()
    server.emit('request', {}, res)
    return { finish: () => res.emit('close') }
  }
  return { server: server as unknown as http.Server, request }
}

describe('collectWhenQuiet', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('collects once after the quiet time following the last request, not while one is in flight', () => {
    const gc = vi.fn()
    const { server, request } = fakeServer()
    collectWhenQuiet(server, 10_000, gc)

    const first = request()
    const second = request()
    first.finish()
    vi.advanceTimersByTime(20_000)
    expect(gc).not.toHaveBeenCalled()

    second.finish()
    vi.advanceTimersByTime(9_999)
    expect(gc).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(gc).toHaveBeenCalledTimes(1)
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'async' })

    vi.advanceTimersByTime(60_000)
    expect(gc).toHaveBeenCalledTimes(1)
  })

  it('starts the quiet time again when a request arrives, and collects again after the next spell', () => {
    const gc = vi.fn()
    const { server, request } = fakeServer()
    collectWhenQuiet(server, 10_000, gc)

    request().finish()
    vi.advanceTimersByTime(5_000)
    request().finish()
    vi.advanceTimersByTime(9_000)
    expect(gc).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1_000)
    expect(gc).toHaveBeenCalledTimes(1)

    request().finish()
    vi.advanceTimersByTime(10_000)
    expect(gc).toHaveBeenCalledTimes(2)
  })

  it('does nothing when the runtime offers no gc', () => {
    const { server, request } = fakeServer()
    collectWhenQuiet(server, 10_000, undefined)
    expect(() => request().finish()).not.toThrow()
    expect(server.listenerCount('request')).toBe(0)
  })
})
