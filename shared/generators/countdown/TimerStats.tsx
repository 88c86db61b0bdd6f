/**
 * A saved timer's counts on its edit page: opens per hour as a chart with the same hours in a
 * table (what a screen reader reads), opens by reader, first and expired opens and clicks, and
 * every counted hour as CSV.
 */
import { useCallback, useEffect, useState } from 'react'
import { lastHours, READER_NAMES, savedTimerCall, statsCsv, type Counts, type TimerStats } from './saved-timer-edit.js'
import { saveBlob } from '../image-export.js'

/** Hours the chart and its table show: the last two days. */
const CHART_HOURS = 48
const CHART = { width: 480, height: 120 }

const hourLabel = (hour: Date) => hour.toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' })

export function TimerStatsSection({ id, editKey }: { id: string; editKey: string }) {
  const [stats, setStats] = useState<TimerStats | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const load = useCallback(() => {
    setFailed(null)
    savedTimerCall<TimerStats>(`timers/${encodeURIComponent(id)}/stats`, editKey).then(setStats, (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)))
  }, [id, editKey])
  useEffect(load, [load])

  return (
    <section className="timer-stats" aria-labelledby="timer-stats-title">
      <h2 id="timer-stats-title">Opens</h2>
      <p className="field-hint">
        Counted per hour, for 90 days, and up to 10 seconds late. Nothing that identifies a reader is kept. Apple Mail’s privacy protection loads every image when an email arrives: those loads are counted apart, and are not people opening it.
      </p>
      {failed && (
        <p className="field-message" role="alert">
          The counts could not be loaded: {failed}
        </p>
      )}
      {stats && <StatsView stats={stats} />}
      <div className="result-actions">
        <button type="button" className="button button-secondary" onClick={load}>
          Refresh counts
        </button>
        {stats && (
          <button type="button" className="button button-secondary" onClick={() => saveBlob(new Blob([statsCsv(stats)], { type: 'text/csv' }), `timer-${id}-opens.csv`)}>
            Download CSV
          </button>
        )}
      </div>
    </section>
  )
}

function StatsView({ stats }: { stats: TimerStats }) {
  const hours = lastHours(stats, new Date(), CHART_HOURS)
  const busiest = Math.max(0, ...hours.map((hour) => hour.opens))
  const most = Math.max(1, busiest)
  const barWidth = CHART.width / CHART_HOURS
  const { total } = stats
  return (
    <>
      <dl className="stats-totals">
        <Total label="Opens" value={total.opens} />
        <Total label="First opens" value={total.first_opens} />
        <Total label="Opens after the end" value={total.expired_opens} />
        <Total label="Link clicks" value={total.clicks} />
      </dl>
      <div className="stats-chart">
        <figure>
          <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} width="100%" role="img" aria-labelledby="stats-chart-caption">
            {hours.map((hour, i) => {
              const height = (hour.opens / most) * (CHART.height - 4)
              return <rect key={hour.hour.getTime()} x={i * barWidth + 1} y={CHART.height - height} width={barWidth - 2} height={height} className="stats-bar" />
            })}
          </svg>
          <figcaption id="stats-chart-caption">
            Opens per hour over the last {CHART_HOURS} hours (busiest hour: {busiest}). The table beside lists each hour.
          </figcaption>
        </figure>
        <div className="stats-table" tabIndex={0} role="region" aria-label="Opens per hour, as a table">
          <table>
            <caption className="visually-hidden">Opens per hour, the last {CHART_HOURS} hours, in your time zone</caption>
            <thead>
              <tr>
                <th scope="col">Hour</th>
                <th scope="col">Opens</th>
              </tr>
            </thead>
            <tbody>
              {hours
                .slice()
                .reverse()
                .map((hour) => (
                  <tr key={hour.hour.getTime()}>
                    <th scope="row">{hourLabel(hour.hour)}</th>
                    <td>{hour.opens}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </div>
      <ReaderTable readers={total.readers} />
    </>
  )
}

function Total({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value.toLocaleString()}</dd>
    </div>
  )
}

function ReaderTable({ readers }: { readers: Counts['readers'] }) {
  return (
    <table className="stats-readers">
      <caption>Opens by reader</caption>
      <thead>
        <tr>
          <th scope="col">Reader</th>
          <th scope="col">Opens</th>
        </tr>
      </thead>
      <tbody>
        {(Object.keys(READER_NAMES) as (keyof Counts['readers'])[]).map((reader) => (
          <tr key={reader}>
            <th scope="row">{READER_NAMES[reader]}</th>
            <td>{readers[reader].toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
