import { useCallback, useEffect, useRef, useState } from 'react'
import { asGeneratorError, type GeneratorError } from './giffer-client.js'

/** How long a generator's messages (the error block, field messages) stay on screen. */
export const MESSAGE_MS = 7000

export interface GeneratorRun<Result> {
  /** Idle, or loading while a request runs; submits made while loading are ignored. */
  status: 'idle' | 'loading'
  /** The last success; replaced by the next one, cleared by a failure. */
  result: Result | null
  /** The last failure, shown for 7 s. */
  error: GeneratorError | null
  /** Runs `work` unless a run is under way; resolves to whether it started. */
  run(work: (signal: AbortSignal) => Promise<Result>): Promise<boolean>
}

/**
 * The states every generator form goes through: idle → loading → idle, with the result of a
 * success or the error of a failure. `release` frees what a replaced result holds (object URLs).
 */
export function useGeneratorRun<Result>(release?: (result: Result) => void): GeneratorRun<Result> {
  const [status, setStatus] = useState<'idle' | 'loading'>('idle')
  const [result, setResult] = useState<Result | null>(null)
  const [error, setError] = useState<GeneratorError | null>(null)
  const busy = useRef(false)
  const current = useRef<Result | null>(null)
  const controller = useRef<AbortController | null>(null)
  const releaseRef = useRef(release)
  releaseRef.current = release

  const replace = (next: Result | null) => {
    if (current.current !== null && current.current !== next) releaseRef.current?.(current.current)
    current.current = next
    setResult(next)
  }

  const run = useCallback(async (work: (signal: AbortSignal) => Promise<Result>) => {
    // A ref, not the state: a second click in the same frame must see the first.
    if (busy.current) return false
    busy.current = true
    const abort = new AbortController()
    controller.current = abort
    setStatus('loading')
    setError(null)
    try {
      const next = await work(abort.signal)
      if (abort.signal.aborted) return true
      replace(next)
    } catch (thrown) {
      if (abort.signal.aborted) return true
      replace(null)
      setError(asGeneratorError(thrown))
    } finally {
      busy.current = false
      if (!abort.signal.aborted) setStatus('idle')
    }
    return true
  }, [])

  useEffect(() => {
    if (!error) return
    const timer = setTimeout(() => setError(null), MESSAGE_MS)
    return () => clearTimeout(timer)
  }, [error])

  // Leaving the page stops the request and frees the result.
  useEffect(
    () => () => {
      controller.current?.abort()
      if (current.current !== null) releaseRef.current?.(current.current)
      current.current = null
    },
    [],
  )

  return { status, result, error, run }
}
