import { escapeHtml } from './html.js';
import { formatCents } from '../shared/giving.js';
import type { RegisterResult } from '../schemas/calendar-registrations.js';
import type { EventsChurch, OfferView, TicketView } from '../services/calendar/public-pages.js';
import { eventsLayout, whenText } from './events-html.js';

// What the event pages answer after the form: the outcome in words (registered, waitlisted,
// waiting for approval), or the payment page — Stripe's Payment Element as on the giving page, or
// the demo payment without keys — with the seats' hold counting down. Also a waitlist offer's page
// and an attendee's ticket with its QR code.

/** The payment page's script (constant: the CSP allows it by its hash): the hold's clock, then pay. */
export const EVENT_PAY_SCRIPT = `(function(){var D=JSON.parse(document.getElementById('pay-data').textContent),st=document.getElementById('pay-status'),clock=document.getElementById('hold-left'),b=document.getElementById('pay');
function say(t,bad){st.textContent=t;st.className=bad?'err':''}
function tick(){var s=Math.max(0,Math.round((Date.parse(D.holdExpiresAt)-Date.now())/1000));clock.textContent=Math.floor(s/60)+':'+String(s%60).padStart(2,'0');if(s===0){clock.textContent='0:00';say('The hold ran out: your seats may have gone to someone else.',true)}else setTimeout(tick,1000)}tick();
function done(){var d=document.getElementById('pay-box');d.outerHTML='<div class="done" role="status" tabindex="-1" id="paid"><h2>Paid: you are registered</h2><p>A confirmation with your tickets is on its way by email.</p></div>';document.getElementById('paid').focus()}
function post(u,x){return fetch(u,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(x)}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error((j&&j.message)||'Something went wrong. Please try again.');return j})})}
b.addEventListener('click',function(){b.disabled=true;if(D.mode==='demo'){say('Paying…');post('/api/public/calendar/payments/demo-complete',{paymentIntent:D.intentId,clientSecret:D.clientSecret}).then(done).catch(function(e){b.disabled=false;say(e.message,true)});return}
new Promise(function(ok,no){var s=document.createElement('script');s.src='https://js.stripe.com/v3';s.onload=ok;s.onerror=function(){no(new Error('The card form could not load. Please try again.'))};document.head.appendChild(s)}).then(function(){
var stripe=window.Stripe(D.publishableKey),el=stripe.elements({clientSecret:D.clientSecret});document.getElementById('card').hidden=false;el.create('payment').mount('#card-element');b.hidden=true;say('Enter your card, then confirm.');
var c=document.getElementById('confirm');c.hidden=false;c.onclick=function(){c.disabled=true;stripe.confirmPayment({elements:el,confirmParams:{return_url:location.origin+D.back}}).then(function(x){if(x.error){c.disabled=false;say(x.error.message,true)}})}}).catch(function(e){b.disabled=false;say(e.message,true)})})})();`;

type Church = Pick<EventsChurch, 'handle' | 'churchName' | 'locale' | 'timeZone'>;

/** The answer to the form: the payment page, or the outcome in words. */
export function renderOutcome(c: Church, title: string, r: RegisterResult, back: string): string {
  if (r.outcome === 'payment' && r.payment) {
    const p = r.payment;
    const until = new Date(p.holdExpiresAt);
    const data = JSON.stringify({
      intentId: p.intentId,
      clientSecret: p.clientSecret,
      publishableKey: p.publishableKey,
      mode: p.mode,
      holdExpiresAt: until.toISOString(),
      back: `${back}?paid=1`,
    }).replace(/</g, '\\u003c');
    const clock = new Intl.DateTimeFormat(c.locale, { timeStyle: 'short', timeZone: c.timeZone }).format(until);
    const discount = r.discountCents > 0 ? ` (after a discount of ${formatCents(r.discountCents)})` : '';
    return eventsLayout(
      c,
      `Pay: ${title}`,
      `<h1>${escapeHtml(title)}</h1><div id="pay-box"><p class="wait" role="status">Your seats are held for 10 minutes, until ${escapeHtml(
        clock,
      )}: <strong id="hold-left" aria-live="off">10:00</strong> left. Pay before then to be registered; after it the seats go back.</p>
<p class="total">Total: ${formatCents(r.totalCents)}${discount}</p><button class="btn" type="button" id="pay">Pay ${formatCents(r.totalCents)}</button>
<div id="card" hidden><div id="card-element"></div><button type="button" class="btn" id="confirm" hidden>Confirm payment</button></div>
${p.mode === 'demo' ? '<p class="muted">Demo mode: no card is charged.</p>' : ''}<p id="pay-status" role="status" aria-live="polite"></p></div>
<script type="application/json" id="pay-data">${data}</script><script>${EVENT_PAY_SCRIPT}</script>`,
    );
  }
  const words: Record<RegisterResult['outcome'], { head: string; text: string; box: string }> = {
    confirmed: {
      head: 'You are registered',
      text: 'A confirmation with the details, a calendar file and a ticket with a QR code for each attendee is on its way by email. Show the QR code at the door.',
      box: 'done',
    },
    waitlisted: {
      head: 'You are on the waitlist',
      text: 'This time is full. Nothing has been charged. If a seat comes free we will email you a link to claim it; the link stays open for 24 hours, then passes to the next person waiting.',
      box: 'wait',
    },
    pending_approval: {
      head: 'Your registration waits for approval',
      text: 'Your seats are kept while the church looks at your registration. We will email you when it is approved (or if it is not).',
      box: 'wait',
    },
    payment: { head: 'Payment', text: r.message, box: 'wait' },
  };
  const w = words[r.outcome];
  return eventsLayout(
    c,
    `${w.head}: ${title}`,
    `<h1>${escapeHtml(title)}</h1><div class="${w.box}" role="status"><h2>${escapeHtml(w.head)}</h2><p>${escapeHtml(w.text)}</p></div><p><a href="${escapeHtml(
      back,
    )}">Back to the event</a></p>`,
  );
}

/** A waitlist offer: claim the seats within the offer's time (then pay, when the tickets cost). */
export function renderOffer(o: OfferView, token: string, now: Date): string {
  const c = { handle: o.handle ?? '', churchName: o.churchName };
  if (o.status !== 'offered' || !o.offerExpiresAt) {
    return eventsLayout(
      c,
      o.title,
      `<h1>${escapeHtml(o.title)}</h1><p class="card" role="status">This offer was already used.</p>`,
    );
  }
  if (o.offerExpiresAt <= now) {
    return eventsLayout(
      c,
      o.title,
      `<h1>${escapeHtml(o.title)}</h1><p class="card" role="status">This offer has expired and passed to the next person waiting.</p>`,
    );
  }
  const until = whenText(o.offerExpiresAt, o);
  const seats = `${o.seats} ${o.seats === 1 ? 'seat' : 'seats'}`;
  return eventsLayout(
    c,
    `A seat for you: ${o.title}`,
    `<h1>${escapeHtml(o.title)}</h1><p class="when">${escapeHtml(whenText(o.startsAt, o))}</p><div class="done"><h2>A seat came free</h2><p>${escapeHtml(
      o.name,
    )}, ${seats} ${o.seats === 1 ? 'is' : 'are'} kept for you until ${escapeHtml(until)}.${
      o.totalCents > 0 ? ` The total is ${formatCents(o.totalCents)}: after claiming you have 10 minutes to pay.` : ''
    } If you do not claim ${o.seats === 1 ? 'it' : 'them'} by then, the offer passes to the next person waiting.</p></div>
<form method="post" action="/events/offers/${escapeHtml(token)}"><button class="btn" type="submit">Claim my ${o.seats === 1 ? 'seat' : 'seats'}</button></form>`,
  );
}

/** An attendee's ticket: the QR code the door scans, with the event's details. */
export function renderTicket(t: TicketView, qrDataUrl: string): string {
  const c = { handle: '', churchName: t.churchName };
  const valid = t.status === 'confirmed';
  const where = [t.locationName, t.address].filter(Boolean).join(', ');
  const state = t.checkedInAt
    ? `<p class="done" role="status">Checked in ${escapeHtml(whenText(t.checkedInAt, t))}.</p>`
    : valid
      ? ''
      : `<p class="wait" role="status">This ticket is not valid: the registration is ${escapeHtml(t.status.replace('_', ' '))}.</p>`;
  return `${eventsLayout(
    c,
    `Ticket: ${t.title}`,
    `<h1>${escapeHtml(t.title)}</h1><p class="when">${escapeHtml(whenText(t.startsAt, t))}</p>${where ? `<p>${escapeHtml(where)}</p>` : ''}
<p><strong>${escapeHtml(t.attendeeName)}</strong> — ${escapeHtml(t.ticketType)}</p>${state}<img src="${qrDataUrl}" width="280" height="280" alt="QR code of the ticket for ${escapeHtml(
      t.attendeeName,
    )}"><p class="muted">Show this code at the door.</p>`,
  )}`;
}
