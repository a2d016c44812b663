import { createHash } from 'node:crypto';

// The giving page's second script: giving itself. The page's own script (GIVE_PAGE_SCRIPT) adds up
// the lines and checks the amounts; when the donor presses Give it loads this one from the church's
// own origin (the CSP's 'self') and calls `window.lampstandGive` with the form's facts. This script
// prepares the gift, then completes the demo payment or mounts Stripe's Payment Element (loading
// js.stripe.com only now), and shows the thanks. The page's visitors who only read it never load it.

/** `window.lampstandGive(c)`: c = { D (the page's data), f (the form), freq, lines, amountCents,
 * coverFees, key (the idempotency key), money, say }. Answers a promise that rejects with the message to show. */
export const GIVE_PAY_SCRIPT = `window.lampstandGive=function(c){var D=c.D,f=c.f,freq=c.freq,money=c.money,say=c.say,ls=c.lines;
function esc(t){return String(t).replace(/[&<>"']/g,function(x){return '&#'+x.charCodeAt(0)+';'})}
var MONTHS=['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'];function day(iso){var d=String(iso||'').split('-');return d.length===3?MONTHS[Number(d[1])-1]+' '+Number(d[2])+', '+d[0]:esc(iso)}
function thanks(p){var when=p.frequency==='one_time'?'':' Your '+freq.options[freq.selectedIndex].text.toLowerCase()+' gift starts on '+day(p.startDate)+'.';var name=function(id){var x=D.funds.filter(function(g){return g.id===id})[0];return x?x.name:'Fund'};
var row=function(k,v){return '<tr><th scope="row">'+esc(k)+'</th><td>'+money(v)+'</td></tr>'};var b=ls.map(function(l){return row(name(l.fundId),l.amountCents)}).join('')+(p.feeCents?row('Card fee covered',p.feeCents):'');
f.outerHTML='<div class="done" role="status" tabindex="-1" id="give-done"><h2>Thank you!</h2><p>Your gift of '+money(p.totalCents)+' to '+esc(D.churchName)+' is received.'+when+'</p><table class="breakdown" aria-label="Your gift"><tbody>'+b+'</tbody><tfoot><tr><th scope="row">Total'+(p.frequency==='one_time'?'':' each time')+'</th><td>'+money(p.totalCents)+'</td></tr></tfoot></table></div>';document.getElementById('give-done').focus()}
function post(u,b){return fetch(u,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b)}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error((j&&j.message)||'Something went wrong. Please try again.');return j})})}
function pay(p){return new Promise(function(ok,no){var s=document.createElement('script');s.src='https://js.stripe.com/v3';s.onload=ok;s.onerror=function(){no(new Error('The card form could not load. Please try again.'))};document.head.appendChild(s)}).then(function(){
var stripe=window.Stripe(D.publishableKey),el=stripe.elements({clientSecret:p.clientSecret}),box=document.getElementById('card');box.hidden=false;el.create('payment').mount('#card-element');say('Enter your card, then confirm.');
var b=document.getElementById('confirm');b.hidden=false;b.onclick=function(){b.disabled=true;var back=location.origin+'/c/'+D.handle+'/give?done=1';var r=p.kind==='setup'?stripe.confirmSetup({elements:el,confirmParams:{return_url:back}}):stripe.confirmPayment({elements:el,confirmParams:{return_url:back}});r.then(function(x){if(x.error){b.disabled=false;say(x.error.message,true)}})}})}
var v=function(n){var x=f.elements[n];return x?x.value.trim():''};var addr={line1:v('line1'),line2:v('line2'),city:v('city'),state:v('state'),postalCode:v('postalCode')};
var body={handle:D.handle,lines:ls,amountCents:c.amountCents,frequency:freq.value,coverFees:c.coverFees,donor:{name:v('name'),email:v('email'),address:addr},note:v('note'),idempotencyKey:c.key,source:new URLSearchParams(location.search).get('lsrc'),renew:D.renew};
if(freq.value!=='one_time'&&v('startDate'))body.startDate=v('startDate');
return post('/api/giving/prepare',body).then(function(p){if(p.mode==='demo')return post('/api/giving/demo-complete',{intentId:p.intentId,clientSecret:p.clientSecret}).then(function(){thanks(p)});return pay(p)})};`;

/** Where the page loads it: the version in the query lets browsers keep it for a year. */
export const GIVE_PAY_SCRIPT_PATH = `/give/pay.js?v=${createHash('sha256').update(GIVE_PAY_SCRIPT).digest('hex').slice(0, 12)}`;
