/**
 * How the preview shows a template: on which device and in which colours. Kept in the URL
 * (`?device=…&view=…`), so a link opens the same view.
 */
import { useState } from 'react'
import { useLocation } from 'react-router'

export type Device = 'desktop' | 'mobile' | 'both'
/** Emails: light; dark as the email declares it (Apple Mail, Outlook for Mac); dark by inversion (Gmail app, Outlook.com); plain text. */
export type ColourView = 'light' | 'dark' | 'inverted' | 'text'

export interface PreviewView {
  device: Device
  colour: ColourView
}

function readView(search: string): PreviewView {
  const params = new URLSearchParams(search)
  const device = params.get('device')
  const colour = params.get('view')
  return {
    device: device === 'mobile' || device === 'both' ? device : 'desktop',
    colour: colour === 'dark' || colour === 'inverted' || colour === 'text' ? colour : 'light',
  }
}

function writeView({ device, colour }: PreviewView) {
  const params = new URLSearchParams(window.location.search)
  if (device === 'desktop') params.delete('device')
  else params.set('device', device)
  if (colour === 'light') params.delete('view')
  else params.set('view', colour)
  const query = params.toString()
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}`)
}

/** The view the address asks for, and a way to change it that updates the address too. */
export function usePreviewView(): [PreviewView, (view: PreviewView) => void] {
  const { search } = useLocation()
  const [view, setView] = useState(() => readView(search))
  const choose = (next: PreviewView) => {
    setView(next)
    writeView(next)
  }
  return [view, choose]
}
