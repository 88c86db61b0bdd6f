/**
 * A first-open store in a process of its own, as each process of a machine (SQLite) or of a
 * deployment (Redis) has one. Started by `runFirstOpenProcesses` (./first-open-processes.ts) with
 * its setup as the first argument: it opens the store on the real clock, moved by `offsetMs`,
 * says `ready`, runs the one command it is then sent from the instant given with it, answers and
 * exits.
 *
 * - `open`: every key given at once (as concurrent requests), answering each key's outcome.
 * - `load`: opens paced at `perSecond`, half of them repeats of keys already stored, answering
 *   the latency of `firstOpen` and the event loop's delay meanwhile.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpen, type FirstOpenLimits, type FirstOpenStore } from '../../server/giffer/live/first-opens.js'

export interface FirstOpenProcessSetup {
  store: { kind: 'sqlite'; file: string } | { kind: 'redis'; url: string }
  limits: FirstOpenLimits
  /** Added to this process's clock, so that two processes' candidates differ. */
  offsetMs: number
  timer: string
  /** The timer's own time: each candidate is the clock plus this. */
  forMs: number
}

export type FirstOpenCommand =
  | { open: string[] }
  /** `repeats` are keys already stored; new keys are `prefix` and a number. */
  | { load: { perSecond: number; seconds: number; repeats: string[]; prefix: string } }

/** Milliseconds at the 50th and 99th percentile, and the longest. */
export interface Spread {
  p50: number
  p99: number
  max: number
}

export interface LoadFigures {
  opens: number
  /** Calls that rejected (a write that waited past busy_timeout). */
  failed: number
  repeat: Spread
  first: Spread
  eventLoopDelay: Spread
}

/** What a process is sent once every one is ready: its command, and the wall-clock instant at which all start. */
export interface FirstOpenStart {
  command: FirstOpenCommand
  startAt: number
}

export type FirstOpenAnswer = { opened: FirstOpen[] } | { load: LoadFigures }

const setup = JSON.parse(process.argv[2] ?? '') as FirstOpenProcessSetup
const now = () => Date.now() + setup.offsetMs
const logger = pino({ level: 'silent' })
/** Each process opens one key of this timer before it says it is ready. */
const WARM_TIMER = 'warm-up'

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 }
}

async function load(store: FirstOpenStore, { perSecond, seconds, repeats, prefix }: Extract<FirstOpenCommand, { load: unknown }>['load']): Promise<LoadFigures> {
  const delay = monitorEventLoopDelay({ resolution: 1 })
  const latencies = { repeat: [] as number[], first: [] as number[] }
  const total = perSecond * seconds
  let issued = 0
  let failed = 0
  const pending: Promise<void>[] = []
  const open = (repeat: boolean) => {
    const key = repeat ? repeats[Math.floor(Math.random() * repeats.length)]! : `${prefix}${issued}`
    const at = now()
    const started = performance.now()
    pending.push(
      store.firstOpen(setup.timer, key, at + setup.forMs, at).then(
        () => void latencies[repeat ? 'repeat' : 'first'].push(performance.now() - started),
        () => void failed++,
      ),
    )
    issued++
  }
  delay.enable()
  const startedAt = performance.now()
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * perSecond))
      while (issued < due) open(issued % 2 === 0)
      if (issued >= total) return resolve()
      setTimeout(tick, Math.max(0, startedAt + ((issued + 1) / perSecond) * 1000 - performance.now()))
    }
    tick()
  })
  await Promise.all(pending)
  delay.disable()
  const ms = (ns: number) => ns / 1e6
  return {
    opens: issued,
    failed,
    repeat: spread(latencies.repeat),
    first: spread(latencies.first),
    eventLoopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
  }
}

const redis = setup.store.kind === 'redis' ? new Redis(setup.store.url) : null
const store =
  setup.store.kind === 'sqlite'
    ? sqliteFirstOpens({ file: setup.store.file, limits: setup.limits, logger, now })
    : redisFirstOpens({ redis: redis!, limits: setup.limits, logger, now })

/** Waits for the wall-clock instant `startAt`, the last milliseconds spinning, so that every process starts within a few microseconds of the others. */
async function startingAt(startAt: number): Promise<void> {
  const wallClock = () => performance.timeOrigin + performance.now()
  if (startAt - wallClock() > 5) await new Promise((resolve) => setTimeout(resolve, startAt - wallClock() - 5))
  while (wallClock() < startAt) continue
}

process.once('message', async ({ command, startAt }: FirstOpenStart) => {
  await startingAt(startAt)
  let answer: FirstOpenAnswer
  if ('open' in command) {
    const opens = command.open.map((key) => {
      const at = now()
      return store.firstOpen(setup.timer, key, at + setup.forMs, at)
    })
    answer = { opened: await Promise.all(opens) }
  } else {
    answer = { load: await load(store, command.load) }
  }
  await store.close()
  redis?.disconnect()
  process.send!(answer, () => process.disconnect())
})
// Compiled and connected before the barrier, so that the processes start their calls together.
await store.firstOpen(WARM_TIMER, String(process.pid), now() + setup.forMs, now())
process.send!('ready')
