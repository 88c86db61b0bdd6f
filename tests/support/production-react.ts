/**
 * React picks its build when it is first loaded, from NODE_ENV. Every real start of the server runs
 * with NODE_ENV=production, so the pages it renders come from React's production build; tests load
 * that same build here, before any file imports it, and leave NODE_ENV as it was for everything else
 * (the processes tests start inherit it). The development build renders the same HTML about twice
 * as slowly, with checks whose warnings no test here reads; the browser tests, which run the built
 * site, watch the console for what React reports there.
 */
const nodeEnv = process.env.NODE_ENV
process.env.NODE_ENV = 'production'
try {
  await import('react')
  await import('react/jsx-runtime')
  await import('react-dom/server')
} finally {
  process.env.NODE_ENV = nodeEnv
}

// A module, so that it may wait at its top level.
export {}
