import { existsSync } from 'node:fs'
import path from 'node:path'

/** Where Debian's `prometheus` package puts its checker. */
export const DEBIAN_PROMTOOL = '/usr/bin/promtool'

/** Prometheus' `promtool`: `PROMTOOL` when set, else the first on PATH, else undefined. */
export function promtoolPath(): string | undefined {
  if (process.env.PROMTOOL) return process.env.PROMTOOL
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)
  return [...dirs.map((dir) => path.join(dir, 'promtool')), DEBIAN_PROMTOOL].find((file) => existsSync(file))
}
