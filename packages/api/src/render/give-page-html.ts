import { escapeHtml } from './html.js';
import { GIVE_PAY_SCRIPT_PATH } from './give-pay-script.js';
import { CSS } from './landing-page-html.js';
import { FREQUENCIES, FREQUENCY_LABELS, QUICK_GIFT_AMOUNTS, type CardFee } from '../schemas/giving.js';

// A church's giving page at /c/{handle}/give: rendered on the server like the church
// home, with one small script (constant: the CSP allows it by its hash) reading its facts from a
// JSON block. Stripe's Payment Element (js.stripe.com) is loaded only with Stripe keys.

export interface GivePageView {
  handle: string;
  churchName: string;
  publicUrl: string;
  funds: { id: number; name: string; description: string | null }[];
  /** The fund chosen by the link (?fund=), when it is one of the public funds. */
  fundId: number | null;
  today: string;
  cardFee: CardFee;
  mode: 'stripe' | 'demo' | 'disabled';
  publishableKey: string | null;
  /** Why nobody can give now (giving not set up), or null. */
  blocked: string | null;
  year?: number;
  /**
   * A recurring giver's personal link after a move (`?renew=`): their funds, amounts, frequency and
   * first date filled in (`open: false`: the link was used or is unknown; the page is as usual).
   */
  renew?: {
    open: boolean;
    token?: string;
    donorName?: string;
    donorEmail?: string | null;
    frequency?: string;
    startDate?: string;
    lines?: { fundId: number; amountCents: number }[];
  };
}

const GIVE_CSS = `header{background:#fff;box-shadow:0 1px 0 #e5e7eb}.give{max-width:640px;margin:0 auto;padding:24px}.give h1{font-size:clamp(1.6rem,5vw,2.2rem);margin:8px 0 4px}
form.gv{display:grid;gap:16px}form.gv label{display:grid;gap:4px;font-weight:600}form.gv input,form.gv select,form.gv textarea{font:inherit;font-weight:400;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff;width:100%}form.gv input:not([type=checkbox]),form.gv select{height:48px}
.quick{display:flex;flex-wrap:wrap;gap:8px}.quick button{font:inherit;padding:8px 16px;border:1px solid #364fc7;color:#364fc7;background:#fff;border-radius:999px;cursor:pointer}
.line{display:grid;grid-template-columns:1fr 8rem auto;gap:8px;align-items:end}.line button{font:inherit;padding:10px;border:1px solid #ced4da;background:#fff;border-radius:8px;cursor:pointer}
.link{font:inherit;background:none;border:0;color:#3b5bdb;text-decoration:underline;cursor:pointer;padding:0;justify-self:start}
.total{font-size:1.15rem;font-weight:700}form.gv label.fee{display:flex;gap:10px;align-items:flex-start;font-weight:400}form.gv .fee input{width:20px;height:20px;margin-top:3px;flex:none}
fieldset{border:1px solid #e5e7eb;border-radius:12px;padding:16px;display:grid;gap:12px;margin:0}legend{font-weight:700;padding:0 6px}.row2{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.err{color:#c92a2a;font-weight:600}.done{border:1px solid #b2f2bb;background:#ebfbee;border-radius:12px;padding:20px}
.breakdown{border-collapse:collapse;min-width:min(100%,320px)}.breakdown th{text-align:left;font-weight:400;padding:4px 16px 4px 0}.breakdown td{text-align:right;padding:4px 0;font-variant-numeric:tabular-nums}.breakdown tfoot th,.breakdown tfoot td{font-weight:700;border-top:1px solid #8ce99a}
@media (max-width:480px){.line{grid-template-columns:1fr 6.5rem auto}.row2{grid-template-columns:1fr}}`;

/**
 * The page's script before payment: lines that add up and the fee sentence. Giving itself (prepare,
 * then Stripe or the demo payment, then the thanks) is `GIVE_PAY_SCRIPT` (give-pay-script.ts),
 * fetched when the donor first presses Give: a visitor who only reads the page loads under 2 KB.
 */
export const GIVE_PAGE_SCRIPT = `(function(){var D=JSON.parse(document.getElementById('give-data').textContent);var f=document.getElementById('give-form');if(!f)return;
var lines=document.getElementById('lines'),tpl=document.getElementById('line-tpl'),st=document.getElementById('give-status'),feeBox=document.getElementById('cover'),feeText=document.getElementById('fee-text'),tot=document.getElementById('total'),freq=document.getElementById('frequency'),sw=document.getElementById('start-wrap'),add=document.getElementById('add-line');
function cents(v){v=String(v||'').trim().replace(/^\\$/,'').replace(/,/g,'');var m=/^(\\d{1,9})(?:\\.(\\d{0,2}))?$/.exec(v);if(!m)return null;return Number(m[1])*100+Number(((m[2]||'')+'00').slice(0,2))}
function money(c){var s=String(Math.floor(c/100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g,',');return '$'+s+'.'+String(c%100).padStart(2,'0')}
function fee(c){var d=10000-D.fee.percentBasisPoints;return Math.ceil((c+D.fee.fixedCents)*10000/d)-c}
function rows(){return Array.prototype.slice.call(lines.querySelectorAll('.line'))}
function sum(){var t=0,ok=true;rows().forEach(function(r){var c=cents(r.querySelector('input').value);if(c===null)ok=false;else t+=c});return ok?t:null}
function renum(){rows().forEach(function(r,i){var n=i+1;r.querySelector('select').setAttribute('aria-label','Fund '+n);r.querySelector('input').setAttribute('aria-label','Amount '+n+' (USD)');var b=r.querySelector('button');b.hidden=rows().length<2;b.setAttribute('aria-label','Remove fund '+n)});add.hidden=rows().length>=D.maxLines||D.funds.length<2}
function update(){var t=sum();var fc=t?fee(t):0;feeText.textContent=t?'Cover the fees: add '+money(fc)+' so '+D.churchName+' receives the whole '+money(t)+'.':'Cover the fees ('+(D.fee.percentBasisPoints/100)+'% + '+money(D.fee.fixedCents)+' a card gift) so the church receives it all.';tot.textContent=t===null?'Check the amounts':'Total: '+money(t+(feeBox.checked?fc:0))+(freq.value==='one_time'?'':' '+freq.options[freq.selectedIndex].text.toLowerCase());sw.hidden=freq.value==='one_time'}
function addLine(){var n=tpl.content.firstElementChild.cloneNode(true);var used=rows().map(function(r){return r.querySelector('select').value});var s=n.querySelector('select');for(var i=0;i<s.options.length;i++){if(used.indexOf(s.options[i].value)<0){s.selectedIndex=i;break}}lines.appendChild(n);renum();update();n.querySelector('input').focus()}
lines.addEventListener('input',update);lines.addEventListener('change',update);feeBox.addEventListener('change',update);freq.addEventListener('change',update);
lines.addEventListener('click',function(e){var b=e.target.closest('button');if(b){b.closest('.line').remove();renum();update()}});add.addEventListener('click',addLine);
document.querySelectorAll('.quick button').forEach(function(b){b.addEventListener('click',function(){var i=rows()[0].querySelector('input');i.value=b.dataset.amount;update()})});
renum();update();var key=(crypto.randomUUID?crypto.randomUUID():String(Math.random()).slice(2)+Date.now()).replace(/[^A-Za-z0-9_-]/g,'');
function say(t,bad){st.textContent=t;st.className=bad?'err':''}
var payer=null;function payScript(){return payer||(payer=new Promise(function(ok,no){var s=document.createElement('script');s.src=D.payScript;s.onload=function(){ok(window.lampstandGive)};s.onerror=function(){payer=null;s.remove();no(new Error('The card form could not load. Please try again.'))};document.head.appendChild(s)}))}
f.addEventListener('submit',function(e){e.preventDefault();var ls=rows().map(function(r){return{fundId:Number(r.querySelector('select').value),amountCents:cents(r.querySelector('input').value)}});
if(ls.some(function(l){return l.amountCents===null||l.amountCents<50})){say('Each amount must be at least $0.50',true);return}
var btn=f.querySelector('button[type=submit]');btn.disabled=true;say('Preparing your gift…');
payScript().then(function(give){return give({D:D,f:f,freq:freq,lines:ls,amountCents:sum(),coverFees:feeBox.checked,key:key,money:money,say:say})}).catch(function(err){btn.disabled=false;say(err.message,true)})})})();`;

function fundOptions(v: GivePageView, selected: number | null): string {
  return v.funds
    .map(
      (f) =>
        `<option value="${f.id}"${f.id === selected ? ' selected' : ''}>${escapeHtml(f.name)}${
          f.description ? ` — ${escapeHtml(f.description)}` : ''
        }</option>`,
    )
    .join('');
}

function line(v: GivePageView, selected: number | null, amount: string): string {
  return `<div class="line"><label>Fund<select name="fund">${fundOptions(v, selected)}</select></label><label>Amount<input name="amount" inputmode="decimal" autocomplete="off" value="${escapeHtml(
    amount,
  )}" required></label><button type="button" hidden>✕</button></div>`;
}

/** The giving page: funds (split a gift across them), frequency, the fee, the donor, then the card. */
export function renderGivePage(v: GivePageView): string {
  const data = JSON.stringify({
    handle: v.handle,
    churchName: v.churchName,
    funds: v.funds.map((f) => ({ id: f.id, name: f.name })),
    fee: v.cardFee,
    publishableKey: v.publishableKey,
    maxLines: 10,
    renew: v.renew?.open ? v.renew.token : null,
    payScript: GIVE_PAY_SCRIPT_PATH,
  }).replace(/</g, '\\u003c');
  const first = v.fundId ?? v.funds[0]?.id ?? null;
  const quick = QUICK_GIFT_AMOUNTS.map((a) => `<button type="button" data-amount="${a}">$${a}</button>`).join('');
  const r = v.renew?.open ? v.renew : null;
  const frequencies = FREQUENCIES.map(
    (f) => `<option value="${f}"${r?.frequency === f ? ' selected' : ''}>${FREQUENCY_LABELS[f]}</option>`,
  ).join('');
  const prefill: Record<string, string> = r ? { name: r.donorName ?? '', email: r.donorEmail ?? '' } : {};
  const field = (name: string, label: string, type = 'text', auto = 'off', required = false) =>
    `<label>${label}<input name="${name}" type="${type}" autocomplete="${auto}"${
      prefill[name] ? ` value="${escapeHtml(prefill[name])}"` : ''
    }${required ? ' required' : ''}></label>`;
  const dollars = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  const lines = r?.lines?.length
    ? r.lines.map((l) => line(v, l.fundId, dollars(l.amountCents))).join('')
    : line(v, first, '');
  const notice = r
    ? `<p class="card" role="status">Welcome back${r.donorName ? `, ${escapeHtml(r.donorName)}` : ''}: your recurring gift is filled in as you gave it before, starting after your last gift. Check it, then give.</p>`
    : v.renew
      ? '<p class="card" role="status">This personal link is no longer open (the gift may already be set up). You can still give below.</p>'
      : '';
  const form =
    v.blocked || v.funds.length === 0
      ? `<p class="card" role="status">${escapeHtml(v.blocked ?? 'Online giving is not available yet for this church.')}</p>`
      : `${notice}<form id="give-form" class="gv" novalidate><fieldset><legend>Your gift</legend><div class="quick" role="group" aria-label="Quick amounts">${quick}</div>
<div id="lines">${lines}</div><button type="button" class="link" id="add-line">Add a fund</button>
<label>Frequency<select id="frequency" name="frequency">${frequencies}</select></label>
<label id="start-wrap" hidden>Start date<input type="date" name="startDate" min="${v.today}" value="${r?.startDate ?? v.today}"></label>
<label class="fee"><input type="checkbox" id="cover" name="coverFees"><span id="fee-text"></span></label>
<p class="total" id="total" aria-live="polite"></p></fieldset>
<fieldset><legend>About you</legend>${field('name', 'Name', 'text', 'name', true)}${field('email', 'Email', 'email', 'email', true)}
<p>Your postal address (optional) goes on your year-end giving statement.</p>${field('line1', 'Address', 'text', 'address-line1')}${field(
          'line2',
          'Address line 2',
          'text',
          'address-line2',
        )}<div class="row2">${field('city', 'City', 'text', 'address-level2')}${field('state', 'State', 'text', 'address-level1')}</div>${field(
          'postalCode',
          'Postal code',
          'text',
          'postal-code',
        )}<label>Note (optional)<textarea name="note" rows="2" maxlength="1000"></textarea></label></fieldset>
<div id="card" hidden><div id="card-element"></div><button type="button" class="btn" id="confirm" hidden>Confirm gift</button></div>
<button class="btn" type="submit">Give</button>${v.mode === 'demo' ? '<p>Demo mode: no card is charged.</p>' : ''}<p id="give-status" role="status" aria-live="polite"></p></form>
<template id="line-tpl">${line(v, null, '')}</template>`;
  const canonical = `${v.publicUrl}/c/${v.handle}/give`;
  const year = v.year ?? new Date().getFullYear();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Give to ${escapeHtml(
    v.churchName,
  )}</title><link rel="canonical" href="${escapeHtml(canonical)}"><meta name="robots" content="noindex"><style>${CSS}${GIVE_CSS}</style></head><body><header><a class="brand" href="/c/${escapeHtml(
    v.handle,
  )}">${escapeHtml(v.churchName)}</a></header><main><div class="give"><h1>Give to ${escapeHtml(
    v.churchName,
  )}</h1><p>Give once or every week, two weeks, month or year, to one fund or several.</p>${form}</div></main><footer><p>© ${year} ${escapeHtml(
    v.churchName,
  )}</p></footer><script type="application/json" id="give-data">${data}</script><script>${GIVE_PAGE_SCRIPT}</script></body></html>`;
}

/** The donor's link page's script: save a new card (Stripe's Payment Element, or the demo). */
export const MANAGE_PAGE_SCRIPT = `(function(){var b=document.getElementById('update-card');if(!b)return;var st=document.getElementById('manage-status'),D=JSON.parse(document.getElementById('manage-data').textContent);
function say(t,bad){st.textContent=t;st.className=bad?'err':''}
function post(u,x){return fetch(u,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(x)}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error((j&&j.message)||'Something went wrong. Please try again.');return j})})}
b.addEventListener('click',function(){b.disabled=true;say('One moment…');post('/api/giving/update-card',{token:D.token}).then(function(p){if(p.mode==='demo')return post('/api/giving/demo-complete',{intentId:p.intentId,clientSecret:p.clientSecret}).then(function(){say('Your card is updated. Thank you!')});
return new Promise(function(ok,no){var s=document.createElement('script');s.src='https://js.stripe.com/v3';s.onload=ok;s.onerror=function(){no(new Error('The card form could not load. Please try again.'))};document.head.appendChild(s)}).then(function(){var stripe=window.Stripe(D.publishableKey),el=stripe.elements({clientSecret:p.clientSecret});document.getElementById('card').hidden=false;el.create('payment').mount('#card-element');say('Enter your card, then save it.');var c=document.getElementById('confirm');c.hidden=false;c.onclick=function(){c.disabled=true;stripe.confirmSetup({elements:el,confirmParams:{return_url:location.href}}).then(function(x){if(x.error){c.disabled=false;say(x.error.message,true)}})}})}).catch(function(e){b.disabled=false;say(e.message,true)})})})();`;

export interface ManagePageView {
  token: string;
  churchName: string;
  donorName: string;
  frequency: string;
  status: string;
  totalCents: number;
  nextDate: string;
  lastFailure: string | null;
  lines: { fundName: string; amountCents: number }[];
  publishableKey: string | null;
}

/** The page a donor's email links to: their recurring gift, and a new card for it. */
export function renderManagePage(v: ManagePageView): string {
  const money = (c: number) => `$${(c / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
  const label = FREQUENCY_LABELS[v.frequency as keyof typeof FREQUENCY_LABELS] ?? v.frequency;
  const data = JSON.stringify({ token: v.token, publishableKey: v.publishableKey }).replace(/</g, '\\u003c');
  const lines = v.lines.map((l) => `<li>${escapeHtml(l.fundName)}: ${money(l.amountCents)}</li>`).join('');
  const body =
    v.status === 'cancelled'
      ? '<p>This recurring gift is cancelled.</p>'
      : `${v.status === 'failing' || v.lastFailure ? `<p class="err">Your card was declined${v.lastFailure ? ` (${escapeHtml(v.lastFailure)})` : ''}. Please update it.</p>` : ''}
<p>Next gift: ${escapeHtml(v.nextDate)}</p><button class="btn" type="button" id="update-card">Update card</button>
<div id="card" hidden><div id="card-element"></div><button type="button" class="btn" id="confirm" hidden>Save card</button></div><p id="manage-status" role="status" aria-live="polite"></p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Your gift to ${escapeHtml(
    v.churchName,
  )}</title><style>${CSS}${GIVE_CSS}</style></head><body><main><div class="give"><h1>Your ${escapeHtml(
    label.toLowerCase(),
  )} gift to ${escapeHtml(v.churchName)}</h1><p>${escapeHtml(v.donorName)}, thank you for giving ${money(v.totalCents)} ${escapeHtml(
    label.toLowerCase(),
  )}.</p><ul>${lines}</ul>${body}</div></main><script type="application/json" id="manage-data">${data}</script><script>${MANAGE_PAGE_SCRIPT}</script></body></html>`;
}
