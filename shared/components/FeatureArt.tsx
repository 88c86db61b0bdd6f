/** Decorative sketches beside the home page's feature sections: shapes only, hidden from assistive tech. */

function Lines({ count, className = 'art-line' }: { count: number; className?: string }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <span key={index} className={className} />
      ))}
    </>
  )
}

function WidgetsArt() {
  return (
    <div className="art-browser">
      <div className="mock-bar">
        <span />
        <span />
        <span />
      </div>
      <div className="art-page">
        <Lines count={3} />
        <div className="art-tiles">
          <span />
          <span />
        </div>
      </div>
      <div className="art-slidein">
        <strong />
        <span className="art-line" />
        <span className="art-input" />
        <span className="art-button" />
      </div>
      <div className="art-bar" />
    </div>
  )
}

function AutomationsArt() {
  return (
    <div className="art-flow">
      {['trigger', 'wait', 'email', 'branch'].map((step) => (
        <div key={step} className={`art-node art-node-${step}`}>
          <span className="art-node-icon" />
          <span className="art-line" />
        </div>
      ))}
    </div>
  )
}

function ContactsArt() {
  return (
    <div className="art-list">
      {['a', 'b', 'c', 'd'].map((row) => (
        <div key={row} className={`art-row art-row-${row}`}>
          <span className="art-avatar" />
          <span className="art-row-text">
            <span className="art-line" />
            <span className="art-line short" />
          </span>
          <span className="art-tag" />
        </div>
      ))}
    </div>
  )
}

function BroadcastsArt() {
  return (
    <div className="art-email">
      <div className="art-email-head">
        <span className="art-line short" />
      </div>
      <div className="art-email-hero" />
      <Lines count={3} />
      <span className="art-button wide" />
    </div>
  )
}

const ART: Record<string, () => React.JSX.Element> = {
  widgets: WidgetsArt,
  automations: AutomationsArt,
  contacts: ContactsArt,
  broadcasts: BroadcastsArt,
}

export function FeatureArt({ section }: { section: string }) {
  const Art = ART[section]
  return (
    <div className={`feature-art feature-art-${section}`} aria-hidden="true">
      {Art && <Art />}
    </div>
  )
}

/** One glyph per widget kind offered by the service, drawn on a 24-unit grid. */
const KIND_GLYPHS: Record<string, string> = {
  subscribe: 'M4 7h16v10H4z M4 7l8 6 8-6',
  promo: 'M5 12l7-7h7v7l-7 7z M15.5 8.5h.01',
  survey: 'M6 19V11 M12 19V6 M18 19v-5',
  contact: 'M5 6h14v9H9l-4 4z',
  messages: 'M4 6h16 M4 12h10 M4 18h7',
  cookies: 'M12 4a8 8 0 1 0 8 8 3 3 0 0 1-4-4 3 3 0 0 1-4-4z M9 13h.01 M14 15h.01',
  'age-gates': 'M12 4l7 3v5c0 4-3 7-7 8-4-1-7-4-7-8V7z M9 12l2 2 4-4',
  whatsapp: 'M5 19l1.5-4A7 7 0 1 1 9 17.5z M9.5 10.5c.5 2 2 3.5 4 4',
  'inspired-by-brands': 'M12 4l2.5 5 5.5.8-4 3.9.9 5.5-4.9-2.6-4.9 2.6.9-5.5-4-3.9 5.5-.8z',
  launchers: 'M12 19v-4 M8 15c-2-3-1-8 4-11 5 3 6 8 4 11z M12 10h.01',
}

export function KindIcon({ kind }: { kind: string }) {
  return (
    <span className="kind-icon" aria-hidden="true">
      <svg width="22" height="22" viewBox="0 0 24 24">
        <path d={KIND_GLYPHS[kind] ?? KIND_GLYPHS.messages} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  )
}
