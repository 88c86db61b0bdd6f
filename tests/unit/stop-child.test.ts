import { spawn, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { stopChild } from '../../scripts/lib/server-process.js'

describe('stopChild', () => {
  it('answers the exit code of a process that stops on the signal', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
    await new Promise((resolve) => child.once('spawn', resolve))
    const { code } = await stopChild(child, 'SIGTERM', 5_000)
    expect(code).toBeNull()
    expect(child.signalCode).toBe('SIGTERM')
  })

  it('kills a process that ignores the signal once its grace is over', async () => {
    const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"])
    await new Promise((resolve) => child.stdout!.once('data', resolve))
    const { ms } = await stopChild(child, 'SIGTERM', 300)
    expect(child.signalCode).toBe('SIGKILL')
    expect(ms).toBeGreaterThanOrEqual(290)
  })

  it('answers at once for a process that never started', async () => {
    const child = spawn('/nonexistent/program')
    child.on('error', () => undefined)
    expect(await stopChild(child)).toEqual({ code: null, ms: 0 })
  })

  it('gives up on a process that outlives its SIGKILL, instead of waiting for ever', async () => {
    vi.useFakeTimers()
    try {
      // A process stuck in the kernel: it takes the signals and never exits.
      const stuck = Object.assign(new EventEmitter(), { pid: 4_000_000, exitCode: null, signalCode: null, kill: vi.fn(() => true) }) as unknown as ChildProcess
      const stopping = stopChild(stuck, 'SIGTERM', 1_000)
      const failed = expect(stopping).rejects.toThrow('process 4000000 still runs 5000 ms after SIGKILL')
      await vi.advanceTimersByTimeAsync(1_000)
      expect(stuck.kill).toHaveBeenLastCalledWith('SIGKILL')
      await vi.advanceTimersByTimeAsync(5_000)
      await failed
    } finally {
      vi.useRealTimers()
    }
  })
})
