import os from 'node:os'
import { defineConfig } from 'vitest/config'
import { reactRouterProduction } from './scripts/lib/client-build.js'

const ALL = ['tests/**/*.test.ts', 'tests/**/*.test.tsx']
const NEVER = ['tests/e2e/**', 'node_modules/**']

/**
 * Files that measure memory: resident memory after hundreds of renders in one thread, and render
 * peaks, each case a process of its own measuring its own rise. What runs beside them does not
 * change what they measure, only how long it takes; they run after the shared files, side by side.
 */
const MEMORY = ['tests/giffer/memory.test.ts', 'tests/giffer/render-memory.test.ts']

/**
 * Files that measure time: how long a job waits for a thread or its memory, what a pool held
 * full answers in time (a live timer's still frame), answers within a second, processes that
 * must start and stop within their limits. Other files running beside them would be measured
 * too (a starved CPU stretches every wait), so they run last, one file at a time, in one worker
 * that keeps its modules from one file to the next, as the shared files do (none replaces a module).
 */
const TIMED = [
  'tests/giffer/pool-scheduling.test.ts',
  'tests/giffer/pool.test.ts',
  'tests/giffer/main.test.ts',
  'tests/giffer/first-opens.test.ts',
  'tests/giffer/live-timer-kinds.test.ts',
  'tests/giffer/proxy.test.ts',
  'tests/routes/fuzz.test.ts',
  'tests/dashboard/login-timing.test.ts',
]

/**
 * Files that replace a module (`vi.mock`), change the process's environment for all their tests,
 * or need module state no other file has touched: each gets modules and an environment of its
 * own, as every file did before.
 */
const OWN_MODULES = [
  'tests/giffer/upload-limits.test.ts',
  'tests/routes/site-sizing.test.ts',
  'tests/giffer/s3-uploads.test.ts',
  'tests/unit/box-script.test.ts',
  // The widget preview reads its own files once per process: this file needs a process that has not.
  'tests/dashboard/preview-unreadable.test.ts',
]

/**
 * The rest share their modules within a worker (`isolate: false`): the server's modules are
 * loaded once per worker rather than once per file, which was half of the time in all. Nothing of
 * a file outlives it there: every app, server and database a test makes is its own, and spies on
 * shared modules are put back before each test (`restoreMocks`). They run side by side, one more
 * than the machine has cores: much of their time is spent waiting on servers, sockets and child
 * processes they start.
 */
const SIDE_BY_SIDE = Math.max(2, os.availableParallelism() + 1)

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['tests/support/production-react.ts'],
    // The server entries bundled once per run, for the tests that start them as processes.
    globalSetup: ['tests/support/server-build.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared modules', include: ALL, exclude: [...NEVER, ...MEMORY, ...TIMED, ...OWN_MODULES], isolate: false, restoreMocks: true, maxWorkers: SIDE_BY_SIDE, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'own modules', include: OWN_MODULES, exclude: NEVER, maxWorkers: SIDE_BY_SIDE, sequence: { groupOrder: 0 } } },
      // Two concurrent tests at a time within a file: the render peaks, each measured in a process of its own.
      { extends: true, test: { name: 'memory', include: MEMORY, exclude: NEVER, maxWorkers: 2, maxConcurrency: 2, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'timed', include: TIMED, exclude: NEVER, isolate: false, restoreMocks: true, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
  // React Router's production build, as every bundle of the site uses (tests/support/production-react.ts says why).
  resolve: { alias: reactRouterProduction },
  // JSX compiles to the production runtime's calls (the development runtime's `jsxDEV` is not in it).
  oxc: { jsx: { development: false } },
})
