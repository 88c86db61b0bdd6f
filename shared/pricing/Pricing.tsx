import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { usePageData } from '../page-data.js'
import {
  crossedOutPrice,
  discountPercent,
  EMAILS_BASE_PRICE_USD,
  EMAILS_PRICE_CURRENCY,
  emailsPricePer1000,
  formatAmount,
  monthlyViewsLabel,
  planIncludes,
  pricePerMonth,
  yearlySavingPercent,
  type Billing,
} from './price-math.js'
import type { Currency, Plan, PlanFeatureRow, PricesResponse } from './schema.js'

/** The currency email prices are quoted in; the server refuses price data without it. */
function emailsCurrencyOf(prices: PricesResponse): Currency {
  return prices.currencies.find((option) => option.code === EMAILS_PRICE_CURRENCY) ?? prices.currency
}

function ProMark() {
  return (
    <span className="pro-mark" title="Pro feature">
      Pro
    </span>
  )
}

function PlanCard({ plan, currency, emailsCurrency, billing, features }: {
  plan: Plan
  currency: Currency
  emailsCurrency: Currency
  billing: Billing
  features: PlanFeatureRow[]
}) {
  const price = plan.prices[currency.code]
  if (!price) return null
  const current = pricePerMonth(price, billing)
  const old = crossedOutPrice(price, billing)
  const discount = plan.features.EMAILS_DISCOUNT
  return (
    <li className={plan.features.FEATURE_PRO ? 'plan-card is-pro' : 'plan-card'}>
      <h2 className="plan-name">{plan.name}</h2>
      <p className="plan-summary">{plan.summary}</p>
      <p className="plan-price">
        {old && (
          <s className="plan-price-old">
            <span className="visually-hidden">Was </span>
            {old}
          </s>
        )}
        <span className="plan-price-current" data-testid={`price-${plan.id}`}>
          {current.text}
        </span>
        <span className="plan-price-period">per month</span>
      </p>
      <p className="plan-billing-note">{billing === 'yearly' ? `Billed yearly, save ${yearlySavingPercent(price)}%` : 'Billed monthly, cancel any time'}</p>
      <SiteLink className={plan.features.FEATURE_PRO ? 'button button-primary' : 'button button-secondary'} href={`/start/?plan=${plan.id}`}>
        Start with {plan.name}
      </SiteLink>
      <ul className="plan-facts">
        <li>
          <strong>{monthlyViewsLabel(plan.features.VIEWS)}</strong> widget views a month
        </li>
        <li>
          <strong>{plan.features.SITES}</strong> {plan.features.SITES === 1 ? 'site' : 'sites'}
        </li>
        <li data-testid={`emails-${plan.id}`}>
          <strong>{formatAmount(emailsPricePer1000(discount), emailsCurrency)}</strong> per 1000 emails
          {discount > 0 && <span className="discount-chip">−{discountPercent(discount)}%</span>}
        </li>
      </ul>
      {/* The same in every currency and billing period: left as the server drew it when the page hydrates. */}
      <StaticHtml as="ul" className="plan-features">
        {features.map((feature) => {
          const included = planIncludes(plan, feature)
          return (
            <li key={feature.id} className={included ? 'is-included' : 'is-excluded'}>
              <span className="visually-hidden">{included ? 'Included: ' : 'Not included: '}</span>
              <a href={`#${feature.id}`}>{feature.name}</a>
              {feature.pro && <ProMark />}
            </li>
          )
        })}
      </StaticHtml>
    </li>
  )
}

function PlanList({ prices, features, billing, currencyCode }: {
  prices: PricesResponse
  features: PlanFeatureRow[]
  billing: Billing
  currencyCode: string
}) {
  const currency = prices.currencies.find((option) => option.code === currencyCode) ?? prices.currency
  const emailsCurrency = emailsCurrencyOf(prices)
  return (
    <ul className="plan-grid" aria-label="Plans">
      {prices.plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} currency={currency} emailsCurrency={emailsCurrency} billing={billing} features={features} />
      ))}
    </ul>
  )
}

function SegmentedControl<T extends string>({ legend, name, options, value, onChange }: {
  legend: string
  name: string
  options: { value: T; label: string }[]
  value: T
  onChange: (value: T) => void
}) {
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className={option.value === value ? 'is-checked' : undefined}>
          <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
          {option.label}
        </label>
      ))}
    </fieldset>
  )
}

export default function Pricing() {
  const { prices, features } = usePageData('pricing')
  const [searchParams] = useSearchParams()
  const [billing, setBilling] = useState<Billing>(searchParams.get('billing') === 'yearly' ? 'yearly' : 'monthly')
  const requested = searchParams.get('currency')?.toUpperCase()
  const [currencyCode, setCurrencyCode] = useState(
    prices?.currencies.some((option) => option.code === requested) ? requested! : (prices?.currency.code ?? ''),
  )

  return (
    <>
      <Seo
        title="Pricing and plans"
        description="Compare the Creator, Pro and Pro Max plans: widget views, email prices per 1000, branding removal and store integration. Start free."
      />
      {/* The heading and the features' descriptions are text and links: left as the server drew them when the page hydrates. */}
      <StaticHtml as="section" className="page-head centered">
        <p className="eyebrow">Pricing</p>
        <h1>Simple plans that grow with your shop</h1>
        <p className="lead">Every plan includes all widget templates, targeting, contacts and the Aurora assistant. Pay for email only when you send.</p>
      </StaticHtml>

      {prices ? (
        <section className="pricing" aria-label="Plans and prices">
          <div className="pricing-controls">
            <SegmentedControl
              legend="Billing period"
              name="billing"
              value={billing}
              onChange={setBilling}
              options={[
                { value: 'monthly', label: 'Monthly' },
                { value: 'yearly', label: 'Yearly' },
              ]}
            />
            <SegmentedControl
              legend="Currency"
              name="currency"
              value={currencyCode}
              onChange={setCurrencyCode}
              options={prices.currencies.map((option) => ({ value: option.code, label: `${option.flag} ${option.code}` }))}
            />
          </div>
          <PlanList prices={prices} features={features} billing={billing} currencyCode={currencyCode} />
          <p className="pricing-footnote">
            Email is priced per 1000 emails sent; a plan’s discount is taken off the {formatAmount(EMAILS_BASE_PRICE_USD, emailsCurrencyOf(prices))} base price. Prices exclude VAT where it applies.
          </p>
        </section>
      ) : (
        <p className="pricing-unavailable" role="status">
          Plans are not available right now. Please refresh the page in a moment.
        </p>
      )}

      {features.length > 0 && (
        <StaticHtml as="section" className="feature-details" aria-labelledby="features-title">
          <h2 id="features-title">What’s in every plan</h2>
          <nav className="feature-anchors" aria-label="Features">
            <ul>
              {features.map((feature) => (
                <li key={feature.id}>
                  <a href={`#${feature.id}`}>{feature.name}</a>
                </li>
              ))}
            </ul>
          </nav>
          <dl className="feature-list">
            {features.map((feature) => (
              <div key={feature.id} id={feature.id} className="feature-row">
                <dt>
                  {feature.name} {feature.pro && <ProMark />}
                </dt>
                <dd>{feature.description}</dd>
              </div>
            ))}
          </dl>
        </StaticHtml>
      )}
    </>
  )
}
