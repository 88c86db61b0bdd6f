/**
 * Where a position in a built script comes from: its source map (linked beside each
 * script) gives the original file, hence the package (react-dom, react-router…) or the site's
 * own file, and the original name where the map has one. Minified chunks mix packages and site
 * code, so a script's address alone says little.
 */
import fs from 'node:fs'
import path from 'node:path'

/** What a built position was before bundling. */
export interface SourceOrigin {
  /**
   * A package name (`react-dom`, `scheduler`), `site` for the project's own files, `bundler
   * runtime` for code the bundler wrote, or the script's file name when it has no map.
   */
  owner: string
  /** Project-relative source file (or the package's file), or the script's file name. */
  file: string
  /** 1-based line in the source file, when known. */
  line?: number
  /** The original identifier at that position, when the map names one. */
  name?: string
}

/** One generated line's segments: [generated column, source index, source line, source column, name index?]. */
type Segment = number[]

interface DecodedMap {
  sources: string[]
  names: string[]
  lines: Segment[][]
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Source map v3 `mappings` decoded into absolute segments per generated line. */
function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = []
  const state = [0, 0, 0, 0, 0]
  for (const line of mappings.split(';')) {
    const segments: Segment[] = []
    state[0] = 0
    for (const text of line.split(',')) {
      if (!text) continue
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const char of text) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      const segment: Segment = []
      fields.forEach((delta, index) => {
        state[index]! += delta
        segment.push(state[index]!)
      })
      segments.push(segment)
    }
    lines.push(segments)
  }
  return lines
}

/** The package a bundled source path belongs to, or `site`. */
function ownerOf(source: string): string {
  const inPackage = source.split('node_modules/').at(-1)!
  if (inPackage === source) return 'site'
  const [scope, name] = inPackage.split('/')
  return scope!.startsWith('@') ? `${scope}/${name}` : scope!
}

/** The owner of code the bundler wrote. */
export const BUNDLER = 'bundler runtime'

export class SourceOrigins {
  private readonly maps = new Map<string, DecodedMap | null>()

  /**
   * @param root the project folder, for project-relative file names
   * @param mapFileFor where the source map of a script address is on disk, if anywhere
   */
  constructor(
    private readonly root: string,
    private readonly mapFileFor: (url: string) => string | undefined,
  ) {}

  private mapOf(url: string): DecodedMap | null {
    if (!this.maps.has(url)) {
      const file = this.mapFileFor(url)
      let decoded: DecodedMap | null = null
      if (file && fs.existsSync(file)) {
        const map = JSON.parse(fs.readFileSync(file, 'utf8')) as { sources: string[]; names?: string[]; mappings: string; sourceRoot?: string }
        const folder = path.dirname(file)
        decoded = {
          sources: map.sources.map((source) => path.relative(this.root, path.resolve(folder, map.sourceRoot ?? '', source)).split(path.sep).join('/')),
          names: map.names ?? [],
          lines: decodeMappings(map.mappings),
        }
      }
      this.maps.set(url, decoded)
    }
    return this.maps.get(url)!
  }

  /** The origin of a 0-based (line, column) position in the script at `url`. */
  at(url: string, line: number, column: number): SourceOrigin {
    const scriptName = url.slice(url.lastIndexOf('/') + 1).split('?')[0]!
    const map = this.mapOf(url)
    if (!map) return { owner: scriptName, file: scriptName }
    // Code the bundler wrote itself (its CommonJS wrapper, the glue of exports) has no source.
    const bundler = { owner: BUNDLER, file: scriptName }
    const segments = map.lines[line]
    if (!segments?.length || segments[0]![0]! > column) return bundler
    // The last segment starting at or before the column.
    let low = 0
    let high = segments.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (segments[middle]![0]! <= column) low = middle
      else high = middle - 1
    }
    const segment = segments[low]!
    if (segment.length < 4) return bundler
    const file = map.sources[segment[1]!]!
    const fileInPackage = file.includes('node_modules/') ? file.split('node_modules/').at(-1)! : file
    return { owner: ownerOf(file), file: fileInPackage, line: segment[2]! + 1, name: segment[4] === undefined ? undefined : map.names[segment[4]] }
  }
}

/** The groups the report sums script time into. */
export function groupOf(owner: string): string {
  if (owner === 'react-dom' || owner === 'react' || owner === 'scheduler') return 'React'
  if (owner === 'react-router') return 'React Router'
  if (owner === 'site') return 'site code'
  // Mostly the CommonJS wrapper: a package's code is compiled when it is first required, and
  // that time is counted in the wrapper. On the site's pages those packages are React's.
  if (owner === BUNDLER) return 'bundler runtime (require of CommonJS: compiles React)'
  return owner
}
