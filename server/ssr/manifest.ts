import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** Written by scripts/build.ts: the hashed client files a page needs. */
const manifestSchema = z.object({
  entry: z.string(),
  /** Chunks the entry imports statically. */
  entryImports: z.array(z.string()),
  stylesheets: z.array(z.string()),
  /** Per page module (shared/pages/{name}.tsx): its chunk and every chunk it imports statically. */
  modules: z.record(z.string(), z.array(z.string())),
})

export type ClientManifest = z.infer<typeof manifestSchema>

export const MANIFEST_FILE = 'dist/manifest.json'

/**
 * Reads the build manifest. Without a build (unit and route tests run from sources) pages still
 * render, just without scripts and styles; `null` tells the caller so it can warn in production.
 */
export function loadManifest(rootDir: string): ClientManifest | null {
  const file = path.join(rootDir, MANIFEST_FILE)
  if (!fs.existsSync(file)) return null
  return manifestSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))
}
