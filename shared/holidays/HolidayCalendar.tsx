import { useEffect, useState } from 'react'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { daysAhead, QUICK_PICK_WINDOW_DAYS } from '../generators/countdown/countdown.js'
import { formatCalendarDate } from '../dates.js'
import { FaqSection } from '../generators/GeneratorPage.js'
import { isoDate, parseIsoDate, type Holiday } from './holidays.js'
import { usePageData } from '../page-data.js'

const DAY_MS = 86_400_000

/** Whole days between two ISO calendar dates. */
function daysBetween(from: string, to: string): number {
  return Math.round((parseIsoDate(to)!.getTime() - parseIsoDate(from)!.getTime()) / DAY_MS)
}

function daysToGo(days: number): string {
  if (days === 0) return 'Today'
  if (days === 1) return 'Tomorrow'
  return `${days} days`
}

/** The visitor's calendar date. */
function localToday(now: Date): string {
  return isoDate(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())))
}

export default function HolidayCalendar() {
  const { copy, holidays: listed, today, generatorPath } = usePageData('holiday-calendar')
  // Drawn for the server's day first; then for the visitor's own day and clock.
  const [list, setList] = useState<{ holidays: Holiday[]; days: (holiday: Holiday) => number }>({ holidays: listed, days: (holiday) => daysBetween(today, holiday.value) })

  useEffect(() => {
    const now = new Date()
    const own = localToday(now)
    const days = (holiday: Holiday) => daysAhead(holiday.value, now)
    if (own === today) return setList({ holidays: listed, days })
    const controller = new AbortController()
    fetch(`/api/holidays?from=${own}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Holiday[]>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((holidays) => setList({ holidays, days }))
      .catch(() => undefined)
    return () => controller.abort()
  }, [listed, today])

  return (
    <div className="page holiday-calendar">
      <Seo title={copy.title} description={copy.description} />
      <header className="page-head centered">
        <h1>{copy.heading}</h1>
        <p className="lead">{copy.intro}</p>
      </header>
      <table className="holiday-table">
        <caption className="visually-hidden">Upcoming holidays, nearest first</caption>
        <thead>
          <tr>
            <th scope="col">Holiday</th>
            <th scope="col">Date</th>
            <th scope="col">Days to go</th>
            <th scope="col">
              <span className="visually-hidden">Countdown</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.holidays.map((holiday) => {
            const days = list.days(holiday)
            const opens = parseIsoDate(holiday.value)!
            opens.setUTCDate(opens.getUTCDate() - QUICK_PICK_WINDOW_DAYS)
            return (
              <tr key={holiday.title}>
                <th scope="row">{holiday.title}</th>
                <td>
                  <time dateTime={holiday.value}>{formatCalendarDate(holiday.value)}</time>
                </td>
                <td>{daysToGo(days)}</td>
                <td>
                  {days <= QUICK_PICK_WINDOW_DAYS ? (
                    <SiteLink className="button button-secondary" href={`${generatorPath}?date=${holiday.value}`} aria-label={`${copy.action}: ${holiday.title}`}>
                      {copy.action}
                    </SiteLink>
                  ) : (
                    <span className="meta">
                      {copy.tooFar} {formatCalendarDate(isoDate(opens))}
                    </span>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <FaqSection faq={copy.faq} />
    </div>
  )
}
