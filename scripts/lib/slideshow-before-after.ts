/**
 * `npm run bench:giffer`'s slideshow before and after: the same slideshow drawn by an earlier
 * build (a git worktree of BENCH_BASELINE, 84faed7 unless set: the last build that took the
 * photos' bytes in the job and drew whole frames) and by this checkout, each from the photos it is
 * sent: the earlier build from camera originals (the page sent them as chosen, under 5 MB) and
 * from 1600×1200 photos, this one from the photos as the page now sends them and from camera
 * originals (API clients that send them as they are).
 *
 * Each side is a child process (scripts/lib/slideshow-bench-runner.ts) with its build's own
 * allocator settings, from the `start` script of its package.json; the sides take turns run by
 * run, so what else the machine does lands on all of them alike.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { projectRoot } from '../../server/project-root.js'
import { addWorktree, removeOrWarn, type Worktree } from './git-worktree.js'
import { asPageSendsIt, BENCH_ASPECTS, benchPhoto, CAMERA_PHOTO, MEDIUM_PHOTO, type BenchAspect } from './bench-photos.js'

const PHOTOS = 10
const RUNNER = path.join(projectRoot, 'scripts', 'lib', 'slideshow-bench-runner.ts')

interface Side {
  label: string
  tree: string
  photos: string
}

interface Runner {
  child: ChildProcess
  next(): Promise<Record<string, number>>
}

/** The environment variables a build's `npm start` sets before `node` (its allocator settings). */
async function startEnv(tree: string): Promise<Record<string, string>> {
  const start = (JSON.parse(await readFile(path.join(tree, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = start.split(/\s+/)
  const assignments = words.slice(0, words.indexOf('node')).filter((word) => /^[A-Z_]+=/.test(word))
  return Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]))
}

async function writePhotos(dir: string, photos: Uint8Array[]): Promise<string> {
  await mkdir(dir, { recursive: true })
  await Promise.all(photos.map((bytes, i) => writeFile(path.join(dir, `${String(i).padStart(2, '0')}.jpg`), bytes)))
  return dir
}

async function startRunner(side: Side, aspect: BenchAspect): Promise<Runner> {
  const env = { ...process.env, ...(await startEnv(side.tree)) }
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', RUNNER, side.tree, side.photos, aspect], {
    cwd: side.tree,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const answers: Record<string, number>[] = []
  const waiting: ((answer: Record<string, number>) => void)[] = []
  child.on('message', (answer: Record<string, number>) => {
    const resolve = waiting.shift()
    if (resolve) resolve(answer)
    else answers.push(answer)
  })
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the ${side.label} runner (${aspect}) exited with ${code}`)
  })
  exited.catch(() => {})
  const next = () => Promise.race([answers.length ? Promise.resolve(answers.shift()!) : new Promise<Record<string, number>>((resolve) => waiting.push(resolve)), exited])
  await next()
  return { child, next }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The table's title and rows: one row per aspect, a cell per side (median ms and peak RSS), and the ratios. */
export async function benchSlideshowBeforeAfter(runs: number, warmup: number): Promise<{ title: string; rows: string[][] }> {
  const baseline = process.env.BENCH_BASELINE ?? '84faed7'
  const dir = await mkdtemp(path.join(os.tmpdir(), 'giffer-slideshow-bench-'))
  const runners: Runner[] = []
  let baselineTree: Worktree | null = null
  try {
    const camera = await Promise.all(Array.from({ length: PHOTOS }, (_, i) => benchPhoto(i, CAMERA_PHOTO)))
    const cameraDir = await writePhotos(path.join(dir, 'camera'), camera)
    const mediumDir = await writePhotos(path.join(dir, 'medium'), await Promise.all(Array.from({ length: PHOTOS }, (_, i) => benchPhoto(i, MEDIUM_PHOTO))))
    const pageDir = await writePhotos(path.join(dir, 'page'), await Promise.all(camera.map(asPageSendsIt)))

    baselineTree = await addWorktree(baseline, path.join(dir, 'baseline'))
    const worktree = baselineTree.dir

    const sides: Side[] = [
      { label: `before (${baseline}): camera photos`, tree: worktree, photos: cameraDir },
      { label: 'after: photos as the page sends them', tree: projectRoot, photos: pageDir },
      { label: `before (${baseline}): 1600×1200 photos`, tree: worktree, photos: mediumDir },
      { label: 'after: camera photos', tree: projectRoot, photos: cameraDir },
    ]
    const aspects = Object.keys(BENCH_ASPECTS) as BenchAspect[]
    for (const aspect of aspects) for (const side of sides) runners.push(await startRunner(side, aspect))

    const times: number[][] = runners.map(() => [])
    for (let run = 0; run < warmup + runs; run++) {
      for (const [i, runner] of runners.entries()) {
        runner.child.send({ run })
        const { ms } = await runner.next()
        if (run >= warmup) times[i]!.push(ms!)
      }
    }
    const peaks: number[] = []
    for (const runner of runners) {
      runner.child.send({ done: true })
      peaks.push((await runner.next()).peakRssMb!)
    }

    const cell = (i: number) => `${median(times[i]!).toFixed(0)} ms, ${peaks[i]!.toFixed(0)} MB`
    const rows = [['10 photos, 900 px', ...sides.map((side) => side.label), 'after page / before camera', 'after page / before 1600×1200']]
    aspects.forEach((aspect, a) => {
      const at = (s: number) => a * sides.length + s
      const ratio = (s: number) => (median(times[at(1)]!) / median(times[at(s)]!)).toFixed(2)
      rows.push([aspect, ...sides.map((_, s) => cell(at(s))), ratio(0), ratio(2)])
    })
    const title = `Slideshow before and after (one worker per process, ${runs} runs after ${warmup} warm-up, taking turns; median time and the process's peak RSS)`
    return { title, rows }
  } finally {
    for (const { child } of runners) if (child.exitCode === null) child.kill()
    await removeOrWarn(baselineTree)
    await rm(dir, { recursive: true, force: true })
  }
}
