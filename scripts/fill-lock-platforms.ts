/**
 * `npx tsx scripts/fill-lock-platforms.ts` after `npm install`: adds lock entries for the
 * platform binaries of optional dependencies that the registry in use does not serve (it
 * carries only Linux builds of @napi-rs/canvas). Without them `npm ci` refuses the lock as out
 * of sync; with them it skips those packages by their os/cpu/libc, as it does on any machine
 * that is not that platform.
 */
import fs from 'node:fs'

const PLATFORM = /-(android|darwin|linux|win32|freebsd)-(arm64|x64|arm|riscv64|ia32)(?:-(gnu|gnueabihf|musl|msvc))?$/

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; optionalDependencies?: Record<string, string> } & Record<string, unknown>>
}
const added: string[] = []
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`
    const match = PLATFORM.exec(name)
    if (lock.packages[key] || !match) continue
    const [, os, cpu, abi] = match
    lock.packages[key] = { version, cpu: [cpu], optional: true, os: [os], ...(os === 'linux' ? { libc: [abi === 'musl' ? 'musl' : 'glibc'] } : {}) }
    added.push(`${name}@${version}`)
  }
}
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `added lock entries for:\n${added.join('\n')}` : 'lock already complete')
