import type { Block, ImageRef, LandingPageContent } from '../schemas/landing-pages.js';
import { progressPercent } from '../shared/show-up.js';
import { formatLongDate, formatWallTime, type Locale } from '../shared/format.js';
import { escapeHtml } from './html.js';

// The public landing page as HTML: served by the server at /p/{slug} and shown by the builder's
// preview (the same markup). Pure string building, no Node or browser APIs.

/** The public pages' one stylesheet (landing pages, a church's home, messages). */
export const CSS = `*{box-sizing:border-box}html{scroll-behavior:smooth}body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2937;background:#fff;line-height:1.6}
a{color:#3b5bdb}header{position:sticky;top:0;z-index:10;display:flex;align-items:center;justify-content:space-between;gap:16px;padding:16px 24px;background:transparent;transition:background .2s,box-shadow .2s,padding .2s}
header.scrolled{background:#fff;box-shadow:0 2px 8px rgba(0,0,0,.08);padding:10px 24px}header .brand{font-weight:700;color:#1f2937;text-decoration:none}
main{display:block}section{padding:32px 24px}section>.in{max-width:760px;margin:0 auto}
.hero{position:relative;isolation:isolate;padding:96px 24px;background:linear-gradient(135deg,#edf2ff,#fff4e6);text-align:center;overflow:hidden}.hero h1,.hero .h{font-size:clamp(2rem,5vw,3.2rem);line-height:1.15;margin:0 0 16px}
.hero p{font-size:1.2rem;color:#374151;margin:0}.hero.img{color:#fff}.hero.img p{color:#f1f3f5}.hero>img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;z-index:-2}
.hero.img::before{content:"";position:absolute;inset:0;background:rgba(17,24,39,.55);z-index:-1}.hero .in{position:relative}
.btn{display:inline-block;background:#364fc7;color:#fff;text-decoration:none;font-weight:600;padding:14px 28px;border-radius:10px;border:0;font-size:1.05rem;cursor:pointer}.btn:hover{background:#2b3d9e}
.btn:focus-visible,input:focus-visible{outline:3px solid #f59f00;outline-offset:2px}.cta{text-align:center;padding:24px}
.rich h2,.rich h3{line-height:1.3}ol.kp{counter-reset:k;list-style:none;padding:0}ol.kp li{counter-increment:k;position:relative;padding:12px 0 12px 56px;border-bottom:1px solid #e5e7eb}
ol.kp li::before{content:counter(k);position:absolute;left:0;top:10px;width:36px;height:36px;border-radius:50%;background:#364fc7;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700}
figure{margin:0}figure img{width:100%;height:auto;border-radius:12px;display:block}figcaption{color:#4b5563;font-size:.95rem;margin-top:8px}
.card{border:1px solid #e5e7eb;border-radius:12px;padding:24px;background:#f8f9fa}dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 16px;margin:0 0 16px}dt{font-weight:600}dd{margin:0}
form.su{display:grid;gap:14px}form.su label{display:grid;gap:4px;font-weight:600}form.su input{font:inherit;padding:10px 12px;border:1px solid #868e96;border-radius:8px}
progress{width:100%;height:12px;accent-color:#364fc7}.raised{margin-bottom:4px}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}.status{min-height:1.5em;font-weight:600}
footer{padding:32px 24px;text-align:center;color:#4b5563;border-top:1px solid #e5e7eb;margin-top:48px}
.nf{min-height:100vh;display:flex;align-items:center;justify-content:center;text-align:center;padding:24px}`;

// Header style after 50 px of scroll, and sign-up forms sent without leaving the page.
export const LANDING_PAGE_SCRIPT = `(function(){var h=document.querySelector('header');function s(){h.classList.toggle('scrolled',window.scrollY>50)}addEventListener('scroll',s,{passive:true});s();
document.querySelectorAll('form.su').forEach(function(f){f.addEventListener('submit',function(e){e.preventDefault();var d={};new FormData(f).forEach(function(v,k){d[k]=v});d.ref_q=location.search;d.ref_r=document.referrer;
var m=f.querySelector('.status'),b=f.querySelector('button');b.disabled=true;m.textContent='';fetch(f.action,{method:'POST',headers:{'content-type':'application/json',accept:'application/json'},body:JSON.stringify(d)})
.then(function(r){return r.json().then(function(j){m.textContent=j.message;if(r.ok)f.reset()})}).catch(function(){m.textContent='Something went wrong. Please try again.'}).then(function(){b.disabled=false})})})})();`;

function img(image: ImageRef, alt: string, opts: { eager?: boolean; sizes: string }) {
  const src = escapeHtml(image.url);
  const srcset = image.thumbnailUrl
    ? ` srcset="${escapeHtml(image.thumbnailUrl)} 400w, ${src} 1600w" sizes="${opts.sizes}"`
    : '';
  return `<img src="${src}"${srcset} alt="${escapeHtml(alt)}" ${opts.eager ? 'fetchpriority="high"' : 'loading="lazy"'} decoding="async">`;
}

/** A Show Up project as its block shows it (live figures, read when the page is rendered). */
export interface ShowUpCard {
  id: number;
  title: string;
  shortDescription: string;
  raisedAmount: number;
  targetAmount: number;
  donationsCount: number;
}

/** A group as a Groups block lists it ('Tuesdays at 7:00 PM' written by the caller). */
export interface GroupsBlockGroup {
  id: number;
  name: string;
  type: string;
  when: string;
  area: string | null;
}

export interface RenderOptions {
  publicUrl: string;
  churchName: string;
  name: string;
  slug: string;
  content: LandingPageContent;
  /**
   * The church's projects its Show Up blocks name, by id (a block naming another is left out);
   * absent in the builder's preview.
   */
  projects?: ReadonlyMap<number, ShowUpCard>;
  /**
   * The church's groups taking new members (not closed, not archived) and its finder
   * (`/c/{handle}/groups`, null without a public handle); absent in the builder's preview.
   */
  groups?: { finderPath: string | null; groups: GroupsBlockGroup[] };
  /** The church's giving page (`/c/{handle}/give`), when it has a public handle: where a 'give' button goes. */
  givePath?: string | null;
  /**
   * The church's events its Register blocks name, by id (an event not open to the public, or of
   * another church, is left out); absent in the builder's preview.
   */
  events?: ReadonlyMap<number, RegisterCard>;
  year?: number;
  /** The church's locale ('en-AU'): an event's date and times as it writes them (the US's when left out). */
  locale?: string;
}

/** A Register block's event: its title, its page, when it is next (in the church's words). */
export interface RegisterCard {
  title: string;
  path: string;
  when: string;
  place: string | null;
}

function registerCard(b: Extract<Block, { type: 'register' }>, ctx: RenderOptions): string {
  if (!b.eventId) return '';
  if (!ctx.events)
    return `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>Event #${b.eventId}</h2><p>The published page shows the event's date and a Register button here.</p></div></section>`;
  const e = ctx.events.get(b.eventId);
  if (!e) return '';
  return `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>${escapeHtml(e.title)}</h2><p>${escapeHtml(e.when)}</p>${
    e.place ? `<p>${escapeHtml(e.place)}</p>` : ''
  }<a class="btn" href="${escapeHtml(e.path)}">${escapeHtml(b.buttonText || 'Register')}</a></div></section>`;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');

export function showUpCard(id: string, p: ShowUpCard): string {
  const pct = progressPercent(p.raisedAmount, p.targetAmount);
  const supporters = `${count.format(p.donationsCount)} ${p.donationsCount === 1 ? 'supporter' : 'supporters'}`;
  return `<section id="${escapeHtml(id)}"><div class="in card"><h2>${escapeHtml(p.title)}</h2>${
    p.shortDescription ? `<p>${escapeHtml(p.shortDescription)}</p>` : ''
  }<p class="raised"><strong>${usd.format(p.raisedAmount)}</strong> raised of ${usd.format(p.targetAmount)} goal</p><progress max="100" value="${pct}" aria-label="Raised so far">${pct}%</progress><p>${pct}% · ${supporters}</p><a class="btn" href="/show-up/${p.id}">Donate Now</a></div></section>`;
}

function groupsBlock(b: Extract<Block, { type: 'groups' }>, g: RenderOptions['groups']): string {
  const head = `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>${escapeHtml(b.title || 'Find a group')}</h2>`;
  // The builder's preview has no groups: a placeholder says what appears.
  if (!g) return `${head}<p>The published page lists the church's groups taking new members here.</p></div></section>`;
  const type = b.groupType.trim().toLowerCase();
  const shown = g.groups.filter((x) => !type || x.type.toLowerCase() === type);
  const item = (x: GroupsBlockGroup) =>
    `<li><strong>${escapeHtml(x.name)}</strong> · ${escapeHtml(x.when)}${x.area ? ` · ${escapeHtml(x.area)}` : ''}</li>`;
  const list = shown.length
    ? `<ul>${shown.map(item).join('')}</ul>`
    : '<p>No group is taking new members at the moment.</p>';
  const link = g.finderPath
    ? `<p><a class="btn" href="${escapeHtml(g.finderPath)}">Find a group and ask to join</a></p>`
    : '';
  return `${head}${list}${link}</div></section>`;
}

function fmtDate(
  date: string | null,
  start: string | null,
  end: string | null,
  o: Locale,
): { date: string; time: string } {
  const dateText = date ? formatLongDate(date, o) : '';
  return { date: dateText, time: [formatWallTime(start, o), formatWallTime(end, o)].filter(Boolean).join(' – ') };
}

function renderBlock(b: Block, ctx: RenderOptions & { firstHero: boolean }): string {
  switch (b.type) {
    case 'hero': {
      const tag = ctx.firstHero ? 'h1' : 'h2';
      const bg = b.backgroundImage ? img(b.backgroundImage, '', { eager: ctx.firstHero, sizes: '100vw' }) : '';
      return `<section class="hero${bg ? ' img' : ''}" id="${escapeHtml(b.id)}">${bg}<div class="in"><${tag} class="h">${escapeHtml(b.headline)}</${tag}>${
        b.subheading ? `<p>${escapeHtml(b.subheading)}</p>` : ''
      }</div></section>`;
    }
    case 'text':
      return b.html ? `<section id="${escapeHtml(b.id)}"><div class="in rich">${b.html}</div></section>` : '';
    case 'highlights': {
      // An empty key point would show as a bare number: only the written ones are listed.
      const items = b.items.map((i) => i.trim()).filter(Boolean);
      return items.length
        ? `<section id="${escapeHtml(b.id)}"><div class="in"><h2>${escapeHtml(b.title || 'Key Highlights')}</h2><ol class="kp">${items
            .map((i) => `<li>${escapeHtml(i)}</li>`)
            .join('')}</ol></div></section>`
        : '';
    }
    case 'image':
      return b.image
        ? `<section id="${escapeHtml(b.id)}"><div class="in"><figure>${img(b.image, b.alt, {
            eager: false,
            sizes: '(max-width: 760px) 100vw, 760px',
          })}${b.caption ? `<figcaption>${escapeHtml(b.caption)}</figcaption>` : ''}</figure></div></section>`
        : '';
    case 'cta': {
      if (!b.text) return '';
      const href =
        b.link?.kind === 'url'
          ? b.link.url
          : b.link?.kind === 'signup'
            ? `#${b.link.blockId}`
            : b.link?.kind === 'showup'
              ? `/show-up/${b.link.projectId}`
              : b.link?.kind === 'give'
                ? ctx.givePath
                  ? `${ctx.givePath}${b.link.fundId ? `?fund=${b.link.fundId}` : ''}`
                  : ''
                : ctx.content.blocks.find((x) => x.type === 'signup')
                  ? `#${ctx.content.blocks.find((x) => x.type === 'signup')!.id}`
                  : '';
      return `<div class="cta" id="${escapeHtml(b.id)}">${
        href
          ? `<a class="btn" href="${escapeHtml(href)}">${escapeHtml(b.text)}</a>`
          : `<span class="btn">${escapeHtml(b.text)}</span>`
      }</div>`;
    }
    case 'event': {
      const when = fmtDate(b.date, b.startTime, b.endTime, { locale: ctx.locale });
      const rows = [
        when.date && `<dt>Date</dt><dd>${escapeHtml(when.date)}</dd>`,
        when.time && `<dt>Time</dt><dd>${escapeHtml(when.time)}</dd>`,
        b.place && `<dt>Place</dt><dd>${escapeHtml(b.place)}</dd>`,
        b.address && `<dt>Address</dt><dd>${escapeHtml(b.address)}</dd>`,
      ].filter(Boolean);
      const links = [
        b.mapUrl && `<a href="${escapeHtml(b.mapUrl)}" rel="noopener">Open map</a>`,
        b.date && `<a href="/p/${escapeHtml(ctx.slug)}/event/${escapeHtml(b.id)}.ics" download>Add to calendar</a>`,
      ].filter(Boolean);
      return `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>${escapeHtml(b.title || 'Event details')}</h2>${
        rows.length ? `<dl>${rows.join('')}</dl>` : ''
      }${links.length ? `<p>${links.join(' · ')}</p>` : ''}</div></section>`;
    }
    case 'showup': {
      if (!b.projectId) return '';
      // The builder's preview has no figures: a placeholder says where they appear.
      if (!ctx.projects)
        return `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>Show Up project #${b.projectId}</h2><p>The published page shows its title and live raised / target here.</p></div></section>`;
      const project = ctx.projects.get(b.projectId);
      return project ? showUpCard(b.id, project) : '';
    }
    case 'groups':
      return groupsBlock(b, ctx.groups);
    case 'register':
      return registerCard(b, ctx);
    case 'signup': {
      const f = (name: string, label: string, type = 'text', auto = '', required = false) =>
        `<label>${escapeHtml(label)}${required ? '' : ' (optional)'}<input name="${name}" type="${type}"${auto ? ` autocomplete="${auto}"` : ''}${required ? ' required' : ''}></label>`;
      return `<section id="${escapeHtml(b.id)}"><div class="in card"><h2>${escapeHtml(b.title || 'Sign up')}</h2>${
        b.description ? `<p>${escapeHtml(b.description)}</p>` : ''
      }<form class="su" method="post" action="/p/${escapeHtml(ctx.slug)}/signup/${escapeHtml(b.id)}">${f('name', 'Name', 'text', 'name', true)}${f(
        'email',
        'Email',
        'email',
        'email',
        true,
      )}${b.fields.includes('phone') ? f('phone', 'Phone', 'tel', 'tel') : ''}${
        b.fields.includes('city') ? f('city', 'City', 'text', 'address-level2') : ''
      }${b.fields.includes('postalCode') ? f('postalCode', 'Postal code', 'text', 'postal-code') : ''}<div class="hp" aria-hidden="true"><label>Website<input name="website" tabindex="-1" autocomplete="off"></label></div><p>We will email you a link to confirm.</p><button class="btn" type="submit">${escapeHtml(
        b.buttonText || 'Sign up',
      )}</button><p class="status" role="status" aria-live="polite"></p></form></div></section>`;
    }
  }
}

/**
 * A public page's description, canonical address, Open Graph and Twitter tags (shared links show
 * its title, description and picture).
 */
export function socialTags(t: {
  title: string;
  description: string;
  url: string;
  siteName: string;
  image: string | null;
  /** A picture shown large (a landing page's hero), else a small card (a logo). */
  largeImage?: boolean;
}): string {
  return [
    `<meta name="description" content="${escapeHtml(t.description)}">`,
    `<link rel="canonical" href="${escapeHtml(t.url)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeHtml(t.title)}">`,
    `<meta property="og:description" content="${escapeHtml(t.description)}">`,
    `<meta property="og:url" content="${escapeHtml(t.url)}">`,
    `<meta property="og:site_name" content="${escapeHtml(t.siteName)}">`,
    t.image ? `<meta property="og:image" content="${escapeHtml(t.image)}">` : '',
    `<meta name="twitter:card" content="${t.image && t.largeImage ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeHtml(t.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(t.description)}">`,
    t.image ? `<meta name="twitter:image" content="${escapeHtml(t.image)}">` : '',
  ].join('');
}

function shell(opts: { title: string; head: string; body: string; churchName: string; year: number }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    opts.title,
  )}</title>${opts.head}<style>${CSS}</style></head><body>${opts.body}<script>${LANDING_PAGE_SCRIPT}</script></body></html>`;
}

/** The whole public page: blocks in order, header, footer, Open Graph and Twitter tags, canonical URL. */
export function renderLandingPage(opts: RenderOptions): string {
  const c = opts.content;
  const abs = (u: string) => (u.startsWith('/') ? opts.publicUrl + u : u);
  const canonical = `${opts.publicUrl}/p/${encodeURIComponent(opts.slug)}`;
  const title = c.headline || opts.name;
  const description = (
    c.subheading ||
    c.mainContent
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() ||
    opts.name
  ).slice(0, 200);
  const firstImage =
    c.blocks.map((b) => (b.type === 'hero' ? b.backgroundImage : b.type === 'image' ? b.image : null)).find(Boolean) ??
    null;
  const head = socialTags({
    title,
    description,
    url: canonical,
    siteName: opts.churchName,
    image: firstImage ? abs(firstImage.url) : null,
    largeImage: true,
  });
  let heroSeen = false;
  const blocks = c.blocks
    .map((b) => {
      const firstHero = b.type === 'hero' && !heroSeen;
      if (b.type === 'hero') heroSeen = true;
      return renderBlock(b, { ...opts, firstHero });
    })
    .join('');
  const year = opts.year ?? new Date().getFullYear();
  const body =
    `<header><a class="brand" href="${escapeHtml(canonical)}">${escapeHtml(opts.churchName)}</a></header>` +
    `<main>${heroSeen ? '' : `<h1 class="hp">${escapeHtml(title)}</h1>`}${blocks}</main>` +
    `<footer><p>© ${year} ${escapeHtml(opts.churchName)}. All rights reserved.</p></footer>`;
  return shell({ title, head, body, churchName: opts.churchName, year });
}

export const NOT_FOUND_TEXT = "The landing page you're looking for doesn't exist or is not published yet.";

// Go Back returns to the previous page when there is one (no inline handler: the CSP forbids them).
export const NOT_FOUND_SCRIPT = `document.querySelector('a.btn').addEventListener('click',function(e){if(history.length>1){e.preventDefault();history.back()}});`;

/** The spec's Page Not Found (sent with status 404). */
export function renderNotFound(
  o: { title: string; text: string } = { title: 'Page Not Found', text: NOT_FOUND_TEXT },
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(o.title)}</title><style>${CSS}</style></head><body><main class="nf"><div><h1>${escapeHtml(o.title)}</h1><p>${escapeHtml(
    o.text,
  )}</p><a class="btn" href="/">Go Back</a></div></main><script>${NOT_FOUND_SCRIPT}</script></body></html>`;
}

/** A small page for sign-up answers and confirmation links (works without JavaScript). */
export function renderMessage(title: string, html: string, status?: { backHref?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(
    title,
  )}</title><style>${CSS}</style></head><body><main class="nf"><div class="card"><h1>${escapeHtml(title)}</h1>${html}${
    status?.backHref ? `<p><a href="${escapeHtml(status.backHref)}">Back to the page</a></p>` : ''
  }</div></main></body></html>`;
}
