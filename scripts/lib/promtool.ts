import { PROMTOOL, toolPath } from './debian-tools.js'

/** Prometheus' `promtool`: `PROMTOOL` when set, else the first on PATH or Debian's, else undefined. */
export function promtoolPath(): string | undefined {
  return process.env.PROMTOOL || toolPath(PROMTOOL)
}
