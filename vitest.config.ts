import os from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Files that measure the machine: resident memory after hundreds of renders, render peaks, how
 * long a job waits for a thread or its memory, answers within a second. Other files running
 * beside them would be measured too (a starved CPU stretches every wait), so they run after the
 * rest, one file at a time, as the whole suite did before.
 */
const MEASURED = [
  'tests/giffer/memory.test.ts',
  'tests/giffer/render-memory.test.ts',
  'tests/giffer/pool-scheduling.test.ts',
  'tests/giffer/pool.test.ts',
  'tests/giffer/main.test.ts',
  'tests/giffer/first-opens.test.ts',
  'tests/routes/fuzz.test.ts',
]

/**
 * The rest run side by side: most of their time is spent waiting on servers, sockets and child
 * processes they start, so one file more than the machine has cores keeps the CPU busy.
 */
const SIDE_BY_SIDE = Math.max(2, os.availableParallelism() + 1)

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'side by side', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'], exclude: ['tests/e2e/**', 'node_modules/**', ...MEASURED], maxWorkers: SIDE_BY_SIDE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'measured', include: MEASURED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
})
