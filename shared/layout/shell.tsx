import { createContext, useContext } from 'react'
import type { DocumentAssets, InlineSheet } from '../site.js'

/** What the document needs besides route data: linked assets and the serialized page state. */
export interface Shell {
  assets: DocumentAssets
  /** The parts of the site's stylesheet the page draws with, inlined so the first paint needs no other request. */
  css: InlineSheet[]
  /** JSON text of the page state; written into the page on the server, read back before hydration. */
  pageState: string
}

export const ShellContext = createContext<Shell>({ assets: { modules: [] }, css: [], pageState: '{}' })

export const useShell = () => useContext(ShellContext)
