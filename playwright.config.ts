import { defineConfig } from '@playwright/test'
import { browserPath } from './scripts/lib/browser.js'

/**
 * Browser tests run the built site (`npm run build`) in Chromium: `CHROME_PATH`, Debian's, or
 * Playwright's own (scripts/ensure-browser.ts, run by `npm test`, makes sure one is there).
 */
const PORT = Number(process.env.E2E_PORT ?? 3210)

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: browserPath(),
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage'],
    },
  },
  webServer: {
    command: 'node dist/server/main.js',
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: { PORT: String(PORT), HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'warn', PUBLIC_URL: `http://localhost:${PORT}` },
  },
})
