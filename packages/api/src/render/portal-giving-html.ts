import { escapeHtml as e } from './html.js';
import { csrfField } from './portal-html.js';
import { FREQUENCY_LABELS, type Frequency } from '../schemas/giving.js';
import { formatCents, goodsServicesText } from '../shared/giving.js';
import { NO_GOODS_SENTENCE, formatStatementDate } from '../services/giving/statement-pdf.js';
import type { PortalGift } from '../services/portal/giving.js';

// 'My giving' in the members' portal: plain HTML forms, no JavaScript.

export interface PortalScheduleView {
  id: number;
  frequency: Frequency;
  status: string;
  nextDate: string;
  pausedUntil: string | null;
  amountCents: number;
  feeCents: number;
  lines: { fundId: number; fundName: string; amountCents: number }[];
  manageToken: string;
}

export interface MyGivingView {
  gifts: PortalGift[];
  schedules: PortalScheduleView[];
  statements: { id: number; fromDate: string; toDate: string; totalCents: number }[];
  /** The funds a donor may choose (public, active). */
  funds: { id: number; name: string }[];
  today: string;
  /** The church's locale: dates as it writes them ('5 Jan 2026' in Australia). */
  locale?: string;
  /** A refused change: which recurring gift and why. */
  error?: { scheduleId: number; message: string };
}

const RECURRING: Frequency[] = ['weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly'];
const STATUS_LABELS: Record<string, string> = {
  pending: 'Waiting for the card',
  active: 'Active',
  paused: 'Paused',
  failing: 'Card declined',
  completed: 'Completed',
  refunded: 'Refunded',
  disputed: 'Disputed',
};
const METHODS: Record<PortalGift['method'], string> = { card: 'Card', cash: 'Cash', check: 'Check', other: 'Other' };
const dollars = (cents: number) => (cents / 100).toFixed(2);
/** ' · $5.00 refunded' for a gift refunded in part (it still counts the rest); a refunded gift says so by its status. */
const refundedOf = (g: Pick<PortalGift, 'status' | 'refundedCents'>) =>
  g.status === 'completed' && g.refundedCents > 0 ? ` · ${formatCents(g.refundedCents)} refunded` : '';

const fundsOf = (lines: { fundName: string; amountCents: number }[]) =>
  lines.map((l) => `${l.fundName} ${formatCents(l.amountCents)}`).join(', ');

function scheduleCard(base: string, csrf: string, s: PortalScheduleView, v: MyGivingView): string {
  const action = (what: string) => `${e(base)}/giving/recurring/${s.id}/${what}`;
  const id = (what: string) => `r${s.id}-${what}`;
  const title = `${FREQUENCY_LABELS[s.frequency]} gift of ${formatCents(s.amountCents + s.feeCents)}`;
  const error =
    v.error?.scheduleId === s.id ? `<p class="err" role="alert" id="${id('error')}">${e(v.error.message)}</p>` : '';
  const options = (selected: number | null) => {
    const funds = [...v.funds];
    const current = s.lines.find((l) => l.fundId === selected);
    if (current && !funds.some((f) => f.id === current.fundId))
      funds.push({ id: current.fundId, name: current.fundName });
    return funds
      .map((f) => `<option value="${f.id}"${f.id === selected ? ' selected' : ''}>${e(f.name)}</option>`)
      .join('');
  };
  const lineRows = [...s.lines.map((l) => ({ fundId: l.fundId, cents: l.amountCents })), { fundId: null, cents: 0 }]
    .map(
      (l, i) =>
        `<div class="row"><div class="field"><label for="${id(`fund-${i}`)}">Fund${i === s.lines.length ? ' (add one)' : ''}</label><select id="${id(`fund-${i}`)}" name="fund">${
          l.fundId === null ? '<option value="">Choose a fund</option>' : ''
        }${options(l.fundId)}</select></div><div class="field"><label for="${id(`amount-${i}`)}">Amount (USD)</label><input id="${id(`amount-${i}`)}" name="amount" type="text" inputmode="decimal" value="${
          l.cents ? dollars(l.cents) : ''
        }"></div></div>`,
    )
    .join('');
  const paused = s.status === 'paused';
  return (
    `<section class="card" aria-labelledby="${id('title')}"><h3 id="${id('title')}">${e(title)}</h3>` +
    `<p>${e(fundsOf(s.lines))}${s.feeCents ? ` + ${e(formatCents(s.feeCents))} card fee covered` : ''}</p>` +
    `<p><b>${e(STATUS_LABELS[s.status] ?? s.status)}</b>${
      paused && s.pausedUntil
        ? ` until ${e(formatStatementDate(s.pausedUntil, { locale: v.locale }))}`
        : ` · next gift ${e(formatStatementDate(s.nextDate, { locale: v.locale }))}`
    }</p>${error}` +
    `<details><summary>Change amount or funds</summary><form method="post" action="${action('lines')}">${csrfField(csrf)}${lineRows}<button class="btn" type="submit">Save amounts</button></form></details>` +
    `<details><summary>Change frequency</summary><form method="post" action="${action('frequency')}">${csrfField(csrf)}<div class="field"><label for="${id('frequency')}">Frequency</label><select id="${id('frequency')}" name="frequency">${RECURRING.map(
      (f) => `<option value="${f}"${f === s.frequency ? ' selected' : ''}>${e(FREQUENCY_LABELS[f])}</option>`,
    ).join('')}</select></div><button class="btn" type="submit">Save frequency</button></form></details>` +
    (paused
      ? `<form method="post" action="${action('resume')}" class="row">${csrfField(csrf)}<button class="btn light" type="submit">Resume now</button></form>`
      : `<details><summary>Pause until a date</summary><form method="post" action="${action('pause')}">${csrfField(csrf)}<div class="field"><label for="${id('until')}">Pause until</label><input id="${id('until')}" name="until" type="date" min="${e(v.today)}" required></div><button class="btn" type="submit">Pause</button></form></details>`) +
    `<div class="row" style="margin-top:12px"><form method="post" action="${action('skip')}">${csrfField(csrf)}<button class="btn light" type="submit">Skip the next one</button></form>` +
    `<a class="btn light" href="/give/manage/${e(s.manageToken)}">Update card</a>` +
    `<a class="btn light" href="${action('cancel')}">Cancel</a></div></section>`
  );
}

/**
 * The 'My giving' page: recurring gifts with their changes, the history with each gift's receipt
 * (a page, and a PDF), the statements.
 */
export function myGivingSection(base: string, csrf: string, v: MyGivingView): string {
  const recurring = v.schedules.length
    ? v.schedules.map((s) => scheduleCard(base, csrf, s, v)).join('')
    : '<p class="muted">No recurring gifts.</p>';
  const history = v.gifts.length
    ? `<ul class="plain">${v.gifts
        .map(
          (g) =>
            `<li><a href="${e(base)}/giving/gifts/${g.id}">${e(formatStatementDate(g.date, { locale: v.locale }))} · ${e(formatCents(g.amountCents))}</a> · ${e(
              fundsOf(g.lines),
            )}${e(refundedOf(g))}${g.status === 'completed' ? '' : ` · ${e(STATUS_LABELS[g.status] ?? g.status)}`} · <a href="${e(base)}/giving/gifts/${g.id}/receipt" aria-label="Receipt (PDF) for ${e(formatStatementDate(g.date, { locale: v.locale }))}, ${e(formatCents(g.amountCents))}">Receipt (PDF)</a></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No gifts yet.</p>';
  const statements = v.statements.length
    ? `<ul class="plain">${v.statements
        .map(
          (s) =>
            `<li><a href="${e(base)}/giving/statements/${s.id}">Giving statement ${e(formatStatementDate(s.fromDate, { locale: v.locale }))} – ${e(
              formatStatementDate(s.toDate, { locale: v.locale }),
            )} (PDF)</a> · ${e(formatCents(Number(s.totalCents)))}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No statements yet.</p>';
  return (
    `<section aria-labelledby="recurring"><h2 id="recurring">Recurring gifts</h2>${recurring}</section>` +
    `<section class="card" aria-labelledby="history"><h2 id="history">History</h2>${history}</section>` +
    `<section class="card" aria-labelledby="statements"><h2 id="statements">Statements</h2>${statements}</section>`
  );
}

/** A gift's receipt. */
export function giftReceiptSection(
  base: string,
  church: { churchName: string; address: string | null; taxId: string | null; locale?: string },
  g: PortalGift,
): string {
  const rows = [
    ...g.lines.map((l) => [l.fundName, formatCents(l.amountCents)]),
    ...(g.feeCents ? [['Card fee covered', formatCents(g.feeCents)]] : []),
  ];
  return (
    `<div class="card"><p><b>${e(church.churchName)}</b>${church.address ? `<br>${e(church.address).replace(/\n/g, '<br>')}` : ''}${
      church.taxId ? `<br>Tax ID: ${e(church.taxId)}` : ''
    }</p>` +
    `<p>${e(formatStatementDate(g.date, { locale: church.locale }))} · ${e(g.method === 'check' && g.checkNumber ? `Check #${g.checkNumber}` : METHODS[g.method])}${
      g.donorName ? ` · ${e(g.donorName)}` : ''
    }</p>` +
    `<ul class="plain">${rows.map(([k, v]) => `<li>${e(k!)}: ${e(v!)}</li>`).join('')}<li><b>Total: ${e(formatCents(g.amountCents))}</b></li>${
      refundedOf(g)
        ? `<li>Refunded: ${e(formatCents(g.refundedCents))}</li><li><b>After the refund: ${e(formatCents(g.amountCents - g.refundedCents))}</b></li>`
        : ''
    }</ul>` +
    `<p>${e(g.goodsServices ? `Goods or services provided: ${goodsServicesText(g.goodsServices, g.goodsServicesCents)}` : NO_GOODS_SENTENCE)}</p>` +
    (g.status === 'completed' ? '' : `<p><b>${e(STATUS_LABELS[g.status] ?? g.status)}</b></p>`) +
    `</div><p class="row"><a class="btn" href="${e(base)}/giving/gifts/${g.id}/receipt">Download receipt (PDF)</a>` +
    `<a class="btn light" href="${e(base)}/giving">Back to My giving</a></p>`
  );
}

/** 'Cancel this recurring gift?': a cancel asks first. */
export function cancelScheduleSection(base: string, csrf: string, s: PortalScheduleView): string {
  return (
    `<div class="card"><p>Your ${e(FREQUENCY_LABELS[s.frequency].toLowerCase())} gift of ${e(
      formatCents(s.amountCents + s.feeCents),
    )} (${e(fundsOf(s.lines))}) stops. It cannot be started again here: you would give again on the giving page.</p>` +
    `<div class="row"><form method="post" action="${e(base)}/giving/recurring/${s.id}/cancel">${csrfField(csrf)}<button class="btn" type="submit">Cancel recurring gift</button></form>` +
    `<a class="btn light" href="${e(base)}/giving">Keep it</a></div></div>`
  );
}
