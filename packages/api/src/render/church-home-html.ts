import { escapeHtml } from './html.js';
import { CSS, LANDING_PAGE_SCRIPT, renderNotFound, showUpCard, socialTags } from './landing-page-html.js';
import type { ChurchHome } from '../services/church-profile/public-home.js';

// A church's public home at /c/{handle}, rendered on the server like its landing
// pages, with their stylesheet and their one small script (the header, and forms sent in place).

/**
 * A church's home as its page shows it (services/church-profile/public-home.ts), where it is, and
 * whether its giving page takes gifts (then the page offers a Give button).
 */
export type ChurchHomeView = Omit<ChurchHome, 'userId'> & {
  publicUrl: string;
  year?: number;
  canGive?: boolean;
  /** The church has public events coming up (the nav links to their list). */
  hasEvents?: boolean;
};

export const CHURCH_NOT_FOUND_TITLE = 'Church not found';
export const CHURCH_NOT_FOUND_TEXT =
  "We couldn't find a church at this address. Please check the link, or ask the church for its page.";

/** An address under /c/ with no church (an unknown handle, or one given up more than a year ago). */
export function renderChurchNotFound(): string {
  return renderNotFound({ title: CHURCH_NOT_FOUND_TITLE, text: CHURCH_NOT_FOUND_TEXT });
}

/** A plain link to a map search for the address (no tiles, no script): OpenStreetMap's search. */
export function mapSearchUrl(address: string): string {
  const query = address
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(', ');
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

const HOME_CSS = `.home-hero{padding:56px 24px 32px;text-align:center;background:linear-gradient(135deg,#edf2ff,#fff4e6)}.home-hero img{width:96px;height:96px;object-fit:contain;border-radius:16px;background:#fff}
.home-hero h1{margin:12px 0 8px;font-size:clamp(1.8rem,5vw,2.6rem);line-height:1.2}.lines{white-space:pre-line;margin:0}ul.pages{list-style:none;padding:0;margin:0;display:grid;gap:12px}
ul.pages a{display:block;padding:16px;border:1px solid #e5e7eb;border-radius:12px;text-decoration:none;background:#fff}ul.pages span{display:block;color:#4b5563;font-size:.95rem}
fieldset{border:0;padding:0;margin:0;display:grid;gap:10px}legend{font-weight:600;margin-bottom:6px}form.su label.list{display:flex;gap:10px;align-items:flex-start;font-weight:400}
form.su label.list input{width:20px;height:20px;margin-top:3px;accent-color:#364fc7}label.list b{display:block}label.list small{display:block;color:#4b5563;font-size:.95rem}header nav{display:flex;gap:16px}
.home-hero .give{margin-top:16px}.btn.give-btn{font-size:1.1rem;padding:14px 32px}`;

const abs = (publicUrl: string, u: string) => (u.startsWith('/') ? publicUrl + u : u);

function section(id: string, title: string, inner: string): string {
  return `<section id="${id}"><div class="in"><h2>${escapeHtml(title)}</h2>${inner}</div></section>`;
}

function joinForm(v: ChurchHomeView): string {
  if (v.lists.length === 0) return '';
  const lists = v.lists
    .map(
      (l) =>
        `<label class="list"><input type="checkbox" name="list_${l.id}"${v.lists.length === 1 ? ' checked' : ''}><span><b>${escapeHtml(
          l.name,
        )}</b>${l.description ? `<small>${escapeHtml(l.description)}</small>` : ''}</span></label>`,
    )
    .join('');
  const field = (name: string, label: string, type: string, auto: string) =>
    `<label>${label}<input name="${name}" type="${type}" autocomplete="${auto}" required></label>`;
  return `<section id="join"><div class="in card"><h2>Stay in touch</h2><form class="su" method="post" action="/c/${escapeHtml(
    v.handle,
  )}/join"><fieldset><legend>Lists you can join</legend>${lists}</fieldset>${field('name', 'Name', 'text', 'name')}${field(
    'email',
    'Email',
    'email',
    'email',
  )}<div class="hp" aria-hidden="true"><label>Website<input name="website" tabindex="-1" autocomplete="off"></label></div><p>We will email you a link to confirm.</p><button class="btn" type="submit">Join</button><p class="status" role="status" aria-live="polite"></p></form></div></section>`;
}

/** The church's public home: who it is, when it meets, its pages and projects, and its lists to join. */
export function renderChurchHome(v: ChurchHomeView): string {
  const canonical = `${v.publicUrl}/c/${v.handle}`;
  const description = (v.description || `${v.churchName} on Lampstand`).slice(0, 200);
  const image = v.logo ? abs(v.publicUrl, v.logo.url) : null;
  const head = socialTags({ title: v.churchName, description, url: canonical, siteName: v.churchName, image });
  const visit = [
    v.serviceTimes && `<h3>Service times</h3><p class="lines">${escapeHtml(v.serviceTimes)}</p>`,
    v.address &&
      `<h3>Address</h3><p class="lines">${escapeHtml(v.address)}</p><p><a href="${escapeHtml(mapSearchUrl(v.address))}" rel="noopener">Show on a map (OpenStreetMap)</a></p>`,
    v.website &&
      `<p><a href="${escapeHtml(v.website)}" rel="noopener">${escapeHtml(v.website.replace(/^https?:\/\//, '').replace(/\/$/, ''))}</a></p>`,
  ]
    .filter(Boolean)
    .join('');
  const pages = v.pages.length
    ? section(
        'pages',
        'What’s on',
        `<ul class="pages">${v.pages
          .map(
            (p) =>
              `<li><a href="/p/${encodeURIComponent(p.slug)}"><b>${escapeHtml(p.name)}</b>${
                p.headline && p.headline !== p.name ? `<span>${escapeHtml(p.headline)}</span>` : ''
              }</a></li>`,
          )
          .join('')}</ul>`,
      )
    : '';
  const projects = v.projects.map((p) => showUpCard(`project-${p.id}`, p)).join('');
  const logo = v.logo
    ? `<img src="${escapeHtml(v.logo.thumbnailUrl ?? v.logo.url)}" alt="${escapeHtml(v.churchName)} logo" width="96" height="96">`
    : '';
  const year = v.year ?? new Date().getFullYear();
  const give = `/c/${escapeHtml(v.handle)}/give`;
  const body =
    `<header><a class="brand" href="${escapeHtml(canonical)}">${escapeHtml(v.churchName)}</a><nav aria-label="${escapeHtml(v.churchName)}">${v.canGive ? `<a href="${give}">Give</a> ` : ''}${v.groupCount ? `<a href="/c/${escapeHtml(v.handle)}/groups">Groups</a> ` : ''}${v.hasEvents ? `<a href="/c/${escapeHtml(v.handle)}/events">Events</a> ` : ''}<a href="/c/${escapeHtml(v.handle)}/me">Members</a></nav></header>` +
    `<main><div class="home-hero">${logo}<h1>${escapeHtml(v.churchName)}</h1>${
      v.description ? `<p class="lines">${escapeHtml(v.description)}</p>` : ''
    }${v.canGive ? `<p class="give"><a class="btn give-btn" href="${give}">Give to ${escapeHtml(v.churchName)}</a></p>` : ''}</div>${visit ? section('visit', 'Visit us', visit) : ''}${v.groupCount ? section('groups', 'Groups', `<p>Find a small group, class or team near you.</p><p><a class="btn" href="/c/${escapeHtml(v.handle)}/groups">Find a group</a></p>`) : ''}${pages}${projects}${joinForm(v)}</main>` +
    `<footer><p>© ${year} ${escapeHtml(v.churchName)}. All rights reserved.</p></footer>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    v.churchName,
  )}</title>${head}<style>${CSS}${HOME_CSS}</style></head><body>${body}<script>${LANDING_PAGE_SCRIPT}</script></body></html>`;
}
