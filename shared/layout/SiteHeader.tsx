import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { useLocation, useNavigation } from 'react-router'
import { checkLogin, isLoggedIn } from '../accounts/session.js'
import { isPlainClick, SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { usePageData } from '../page-data.js'
import type { NavGroup, SiteNav } from '../content/schema.js'
import { SITE_NAME } from '../site.js'
import { AUTH_PATHS } from '../accounts/paths.js'
import { takeEarlyMenus } from './early-menus.js'
import { loadPageSheets } from './page-sheets.js'

function menuLinks(panel: HTMLElement | null): HTMLAnchorElement[] {
  return panel ? Array.from(panel.querySelectorAll('a')) : []
}

interface MenuProps {
  group: NavGroup & { items: NonNullable<NavGroup['items']> }
  open: boolean
  onToggle: (open: boolean) => void
}

/** One navigation group: a disclosure button and its panel of links, usable by mouse, touch and keyboard. */
function NavMenu({ group, open, onToggle }: MenuProps) {
  const panelId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)

  const focusItem = (index: number) => {
    const links = menuLinks(panelRef.current)
    links[(index + links.length) % links.length]?.focus()
  }

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      onToggle(true)
      const last = event.key === 'ArrowUp'
      // The panel renders on the next frame when it was closed.
      requestAnimationFrame(() => focusItem(last ? -1 : 0))
    }
  }

  const onPanelKeyDown = (event: KeyboardEvent) => {
    const links = menuLinks(panelRef.current)
    const index = links.indexOf(document.activeElement as HTMLAnchorElement)
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: links.length - 1 }
    const next = moves[event.key]
    if (next !== undefined) {
      event.preventDefault()
      focusItem(next)
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation()
      onToggle(false)
      buttonRef.current?.focus()
    }
  }

  return (
    <li
      className={open ? 'nav-group is-open' : 'nav-group'}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) onToggle(false)
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="nav-trigger"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => onToggle(!open)}
        onKeyDown={onButtonKeyDown}
      >
        {group.label}
        <svg className="nav-caret" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      </button>
      {/* Focusable, so a click on the panel's own padding keeps focus inside the menu. */}
      <div ref={panelRef} id={panelId} className="nav-panel" hidden={!open} tabIndex={-1} onKeyDown={onPanelKeyDown}>
        {/* Links drawn from the site's own navigation, the same on every page: left as the server drew them. */}
        <StaticHtml as="ul" fixed>
          {group.items.map((item) => (
            <li key={item.href}>
              <SiteLink href={item.href} className="nav-item">
                <span className="nav-item-label">{item.label}</span>
                <span className="nav-item-description">{item.description}</span>
              </SiteLink>
            </li>
          ))}
        </StaticHtml>
      </div>
    </li>
  )
}

type AuthDialogModule = typeof import('../accounts/AuthDialog.js')
let authDialog: Promise<AuthDialogModule> | null = null

/**
 * The log-in and sign-up overlay's code and the styles it draws with, fetched the first time it
 * opens. (After a failure both are asked for again: Chromium fetches a failed module again,
 * while Firefox and Safari keep its failure for the page's life, and then the link's page opens.)
 */
function loadAuthDialog(): Promise<AuthDialogModule> {
  if (!authDialog) {
    authDialog = Promise.all([import('../accounts/AuthDialog.js'), loadPageSheets('AuthDialog')]).then(([module]) => module)
    authDialog.catch(() => (authDialog = null))
  }
  return authDialog
}

/** Drawn once `loadAuthDialog` has brought it: React keeps what this first resolves to. */
const AuthDialog = lazy(loadAuthDialog)

/**
 * How long a click on Log in or Get started waits for the dialog before following its link. Its
 * code and styles are asked for as soon as a pointer comes over a link or one takes the focus.
 */
const DIALOG_WAIT_MS = 3000
/** What the header says when a log-in or sign-up link could not open offline. */
const OFFLINE_NOTICES: Record<DialogKind, string> = {
  login: 'You’re offline. Log in once you’re back online.',
  signup: 'You’re offline. Sign up once you’re back online.',
}

/** Starts fetching the dialog ahead of a click; a failure is the click's to handle. */
const prefetchAuthDialog = () => void loadAuthDialog().catch(() => undefined)

/** The marker on <html> that says a visitor is logged in (styles and scripts may read it). */
export const HAS_USER_ATTRIBUTE = 'data-has-user'

/**
 * Whether the visitor is logged in, from the session check (remembered a minute per tab). Until
 * it answers, and without JavaScript, the links are the anonymous ones.
 */
function useLoggedIn(): boolean {
  const [loggedIn, setLoggedIn] = useState(false)
  useEffect(() => {
    let live = true
    void checkLogin().then((check) => {
      if (!live) return
      const yes = isLoggedIn(check)
      setLoggedIn(yes)
      document.documentElement.toggleAttribute(HAS_USER_ATTRIBUTE, yes)
    })
    return () => {
      live = false
    }
  }, [])
  return loggedIn
}

/** On the auth forms' own pages the header's log-in and sign-up links navigate instead of opening the dialog. */
const AUTH_PAGES = new Set(Object.values(AUTH_PATHS))

type DialogKind = 'login' | 'signup'

/**
 * The log-in or sign-up dialog the header's links open (`open(kind, onOpening)` makes a link's
 * click handler). It opens once its code and styles have come, unless the visitor has moved on
 * meanwhile (a navigation, or the header leaving, forgets it); if they cannot come, or take
 * long, the link's own page opens, its styles inline. A navigation closes it.
 */
function useAuthDialog() {
  const [dialog, setDialog] = useState<DialogKind | null>(null)
  const [offline, setOffline] = useState<DialogKind | null>(null)
  const location = useLocation()
  const shownKey = useRef(location.key)
  const asked = useRef(0)
  useEffect(() => {
    if (shownKey.current === location.key) return
    shownKey.current = location.key
    asked.current++
    setDialog(null)
    setOffline(null)
  }, [location.key])
  // The offline notice goes once the connection is back (or with a navigation, or the next click).
  useEffect(() => {
    if (!offline) return
    const clear = () => setOffline(null)
    window.addEventListener('online', clear)
    // Back online before this effect ran: no event will come.
    if (navigator.onLine) clear()
    return () => window.removeEventListener('online', clear)
  }, [offline])
  useEffect(() => () => void asked.current++, [])
  // A navigation under way forgets it too: the visitor has moved on before the next page is drawn.
  const navigating = useNavigation().state !== 'idle'
  useEffect(() => {
    if (navigating) asked.current++
  }, [navigating])

  // On the auth pages themselves the links lead to the pages; elsewhere they open the overlay.
  const open = (kind: DialogKind, onOpening: () => void, onOffline: () => void) => (event: MouseEvent) => {
    if (AUTH_PAGES.has(location.pathname) || !isPlainClick(event)) return
    event.preventDefault()
    onOpening()
    setOffline(null)
    const page = (event.currentTarget as HTMLAnchorElement).href
    const request = ++asked.current
    let timer: ReturnType<typeof setTimeout> | undefined
    const slow = new Promise<never>((_, reject) => (timer = setTimeout(reject, DIALOG_WAIT_MS)))
    Promise.race([loadAuthDialog(), slow])
      .then(
        () => request === asked.current && setDialog(kind),
        () => {
          if (request !== asked.current) return
          // Offline, the link's page could not come either, and the browser's own error page
          // would take the visitor off the site: they are told instead.
          if (navigator.onLine) window.location.assign(page)
          else {
            setOffline(kind)
            onOffline()
          }
        },
      )
      .finally(() => clearTimeout(timer))
  }
  return { dialog, offline, open, close: () => setDialog(null) }
}

/**
 * Offline, the phone menu the pressed link (log in, sign up) was in has closed: the focus goes back to its button,
 * unless the visitor has taken it elsewhere meanwhile (the browser may not yet have moved it off
 * the hidden link; a menu the visitor opened again is theirs).
 */
function focusBackToMenu(toggle: HTMLButtonElement | null, menuOpenNow: boolean): void {
  const focused = document.activeElement
  const inClosedMenu = !menuOpenNow && Boolean(document.getElementById('site-nav')?.contains(focused))
  if (!focused || focused === document.body || inClosedMenu) toggle?.focus()
}

export function SiteHeader({ nav }: { nav: SiteNav }) {
  const { origin, appBase } = usePageData('root')
  const loggedIn = useLoggedIn()
  const authDialog = useAuthDialog()
  const [openGroup, setOpenGroup] = useState<string | null>(null)
  const [mobileOpen, setMobileOpen] = useState(false)
  // Read by the log-in dialog's callbacks, which run after renders their closure did not see.
  const mobileOpenNow = useRef(mobileOpen)
  useEffect(() => {
    mobileOpenNow.current = mobileOpen
  }, [mobileOpen])
  const headerRef = useRef<HTMLElement>(null)
  const location = useLocation()

  // Until now the head's menus script opened and closed the menus; the header carries on from
  // what it left open, in the commit that hydrates, so its state matches what is on screen.
  useLayoutEffect(() => {
    if (!headerRef.current) return
    const early = takeEarlyMenus(headerRef.current)
    if (early.mobileOpen) setMobileOpen(true)
    if (early.openGroup !== null) setOpenGroup(early.openGroup)
  }, [])

  // A navigation closes every menu; the page the header first shows is not one.
  const shownKey = useRef(location.key)
  useEffect(() => {
    if (shownKey.current === location.key) return
    shownKey.current = location.key
    setOpenGroup(null)
    setMobileOpen(false)
  }, [location.key])
  const openDialog = (kind: DialogKind) => {
    const fromMenu = mobileOpen
    return authDialog.open(kind, () => setMobileOpen(false), () => fromMenu && focusBackToMenu(toggleRef.current, mobileOpenNow.current))
  }

  // A click or tap outside the header closes an open menu.
  useEffect(() => {
    if (openGroup === null && !mobileOpen) return
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) {
        setOpenGroup(null)
        setMobileOpen(false)
      }
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [openGroup, mobileOpen])

  const toggleRef = useRef<HTMLButtonElement>(null)

  return (
    <header
      ref={headerRef}
      className={mobileOpen ? 'site-header is-mobile-open' : 'site-header'}
      onKeyDown={(event) => {
        // A group's own Escape handler runs first and stops the event; this closes the mobile menu.
        if (event.key === 'Escape' && mobileOpen) {
          setMobileOpen(false)
          toggleRef.current?.focus()
        }
      }}
      onBlur={(event) => {
        if (mobileOpen && !event.currentTarget.contains(event.relatedTarget as Node | null)) setMobileOpen(false)
      }}
    >
      <div className="site-header-inner">
        <SiteLink href="/" className="brand" aria-label={`${SITE_NAME} home`}>
          <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="9" fill="#4f46e5" />
            <path d="M9 23V9h8a5 5 0 0 1 0 10h-4" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
            <circle cx="23.5" cy="22.5" r="2.5" fill="#fbbf24" />
          </svg>
          <span>{SITE_NAME}</span>
        </SiteLink>
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={mobileOpen}
          aria-controls="site-nav"
          onClick={() => setMobileOpen(!mobileOpen)}
        >
          <span className="visually-hidden">{mobileOpen ? 'Close menu' : 'Open menu'}</span>
          <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
            {mobileOpen ? (
              <path d="M5 5l12 12M17 5 5 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M3 6h16M3 11h16M3 16h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
        </button>
        <nav id="site-nav" className="site-nav" aria-label="Main" tabIndex={-1}>
          <ul className="nav-groups">
            {nav.groups.map((group) =>
              group.items?.length ? (
                <NavMenu
                  key={group.label}
                  group={{ ...group, items: group.items }}
                  open={openGroup === group.label}
                  onToggle={(open) => setOpenGroup(open ? group.label : null)}
                />
              ) : (
                <li key={group.label} className="nav-group">
                  <SiteLink href={group.href ?? '/'} className="nav-trigger">
                    {group.label}
                  </SiteLink>
                </li>
              ),
            )}
          </ul>
          <div className="nav-actions">
            {loggedIn ? (
              <a href={appBase} className="button button-primary">
                Go to dashboard
              </a>
            ) : (
              <>
                <a href="/login/" className="button button-ghost" onClick={openDialog('login')} onPointerEnter={prefetchAuthDialog} onFocus={prefetchAuthDialog}>
                  Log in
                </a>
                <a href="/start/" className="button button-primary" onClick={openDialog('signup')} onPointerEnter={prefetchAuthDialog} onFocus={prefetchAuthDialog}>
                  Get started free
                </a>
              </>
            )}
          </div>
        </nav>
      </div>
      {/* Present from the first render, so that screen readers announce what comes into it. */}
      <p className="header-notice" role="status">
        {authDialog.offline && OFFLINE_NOTICES[authDialog.offline]}
      </p>
      {authDialog.dialog && (
        <Suspense fallback={null}>
          <AuthDialog kind={authDialog.dialog} siteOrigin={origin} appOrigin={new URL(appBase, origin).origin} onClose={authDialog.close} />
        </Suspense>
      )}
    </header>
  )
}
