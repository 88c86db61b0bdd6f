import { createContext, useContext } from 'react'
import type { DocumentAssets } from '../site.js'

/** What the document needs besides route data: linked assets and the serialized page state. */
export interface Shell {
  assets: DocumentAssets
  /** The site's stylesheet, inlined so the first paint needs no other request. */
  css: string
  /** JSON text of the page state; written into the page on the server, read back before hydration. */
  pageState: string
}

export const ShellContext = createContext<Shell>({ assets: { modules: [] }, css: '', pageState: '{}' })

export const useShell = () => useContext(ShellContext)
