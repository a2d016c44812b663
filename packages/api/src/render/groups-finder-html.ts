import { escapeHtml } from './html.js';
import { attributionText, MAP_CSS, tileAddress, tileOf } from './map-tile.js';
import { CSS } from './landing-page-html.js';
import { WEEKDAYS } from '../schemas/groups.js';
import type { Finder, FinderFilters, FinderGroup } from '../services/groups/finder.js';

// The public group finder at /c/{handle}/groups and a group's page with 'Ask to join', rendered on
// the server with the landing pages' stylesheet and no script. The map is one tile of the church's
// tile server (MAP_TILE_URL) around the group's rounded area point, with the area shaded: never
// more precise than the suburb, and no map at all for a group that shows no area.

export interface FinderChurch {
  handle: string;
  churchName: string;
  /** MAP_TILE_URL: {z}/{x}/{y}, and {s} for a subdomain. */
  mapTileUrl: string;
  mapAttribution: string;
}

const FINDER_CSS = `ul.groups{list-style:none;padding:0;margin:0;display:grid;gap:16px}ul.groups>li{border:1px solid #e5e7eb;border-radius:12px;padding:16px;background:#fff}
ul.groups h2,ul.groups h3{margin:0 0 4px;font-size:1.25rem}.when{font-weight:600;margin:0}.tags{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:8px 0}
.tags li{background:#edf2ff;color:#364fc7;border-radius:999px;padding:2px 10px;font-size:.9rem}form.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;align-items:end;margin-bottom:24px}
form.filters label{display:flex;flex-direction:column;gap:4px;font-weight:600}form.filters select{font:inherit;font-weight:400;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff;width:100%}
.map .area{position:absolute;width:96px;height:96px;margin:-48px 0 0 -48px;border-radius:50%;background:rgba(54,79,199,.25);border:2px solid #364fc7}.full{color:#9c4221}
${MAP_CSS}`;

const ZOOM = 13;

function map(c: FinderChurch, g: FinderGroup): string {
  if (!g.point || !g.area) return '';
  const t = tileOf(g.point.lat, g.point.lng, ZOOM);
  const src = tileAddress(c.mapTileUrl, t);
  return `<div class="map"><img src="${escapeHtml(src)}" alt="Map of the area around ${escapeHtml(g.area)}" width="256" height="256" loading="lazy"><span class="area" style="left:${t.left}px;top:${t.top}px"></span><small>${escapeHtml(attributionText(c.mapAttribution))}</small></div>`;
}

function clock(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

const NTH = ['', 'first', 'second', 'third', 'fourth', 'last'];

/** 'Tuesdays at 7:00 PM', 'Every other Tuesday', 'Monthly, the first Tuesday', 'By arrangement'. */
export function whenWords(g: Pick<FinderGroup, 'frequency' | 'weekday' | 'weekOfMonth' | 'time'>): string {
  if (g.frequency === 'by_arrangement' || g.weekday === null) return 'By arrangement';
  const day = WEEKDAYS[g.weekday]!;
  const at = g.time ? ` at ${clock(g.time)}` : '';
  if (g.frequency === 'weekly') return `${day}s${at}`;
  if (g.frequency === 'every_other_week') return `Every other ${day}${at}`;
  return `Monthly, the ${NTH[g.weekOfMonth ?? 1]} ${day}${at}`;
}

function page(c: FinderChurch, title: string, inner: string): string {
  const home = `/c/${escapeHtml(c.handle)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    title,
  )}</title><style>${CSS}${FINDER_CSS}</style></head><body><header><a class="brand" href="${home}">${escapeHtml(
    c.churchName,
  )}</a><nav aria-label="${escapeHtml(c.churchName)}"><a href="${home}/groups">Groups</a> <a href="${home}/me">Members</a></nav></header><main>${inner}</main><footer><p>${escapeHtml(
    c.churchName,
  )}</p></footer></body></html>`;
}

function select(name: string, label: string, options: [string, string][], chosen: string): string {
  const opts = options
    .map(([v, l]) => `<option value="${escapeHtml(v)}"${v === chosen ? ' selected' : ''}>${escapeHtml(l)}</option>`)
    .join('');
  return `<label>${label}<select name="${name}"><option value="">Any</option>${opts}</select></label>`;
}

function card(c: FinderChurch, g: FinderGroup, link: boolean): string {
  const level = 'h2';
  const tags = g.tags.length ? `<ul class="tags">${g.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '';
  return `<li><${level}>${escapeHtml(g.name)}</${level}><p>${escapeHtml(g.type)}${g.area ? ` · ${escapeHtml(g.area)}` : ''}</p><p class="when">${escapeHtml(
    whenWords(g),
  )}</p>${tags}${g.description ? `<p class="lines">${escapeHtml(g.description)}</p>` : ''}${map(c, g)}${
    !link
      ? ''
      : g.joinMode === 'closed'
        ? '<p>Not taking new members at the moment.</p>'
        : `<p><a class="btn" href="/c/${escapeHtml(c.handle)}/groups/${g.id}">Ask to join<span class="hp"> ${escapeHtml(g.name)}</span></a></p>`
  }</li>`;
}

export function renderFinder(c: FinderChurch, finder: Finder, f: FinderFilters): string {
  const filters = `<form class="filters" method="get" action="/c/${escapeHtml(c.handle)}/groups">${select(
    'day',
    'Day',
    WEEKDAYS.map((d, i) => [String(i), d]),
    f.weekday === undefined ? '' : String(f.weekday),
  )}${select(
    'type',
    'Type',
    finder.choices.types.map((t) => [t, t]),
    f.type ?? '',
  )}${select(
    'tag',
    'Tag',
    finder.choices.tags.map((t) => [t, t]),
    f.tag ?? '',
  )}${select(
    'area',
    'Area',
    finder.choices.areas.map((t) => [t, t]),
    f.area ?? '',
  )}<button class="btn" type="submit">Find a group</button></form>`;
  const list = finder.groups.length
    ? `<ul class="groups">${finder.groups.map((g) => card(c, g, true)).join('')}</ul>`
    : '<p>No group matches these choices. Try another day or area.</p>';
  return page(
    c,
    `Groups · ${c.churchName}`,
    `<section><div class="in"><h1>Find a group</h1>${filters}<p role="status">${finder.groups.length} ${
      finder.groups.length === 1 ? 'group' : 'groups'
    }</p>${list}</div></section>`,
  );
}

export interface AskState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
}

export function renderGroupPage(c: FinderChurch, g: FinderGroup, state: AskState = {}): string {
  const v = state.values ?? {};
  const e = state.errors ?? {};
  const field = (name: string, label: string, type: string, auto: string, required: boolean) =>
    `<label>${label}${required ? '' : ' (optional)'}<input name="${name}" type="${type}" autocomplete="${auto}" value="${escapeHtml(
      v[name] ?? '',
    )}"${required ? ' required' : ''}${e[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}></label>${
      e[name] ? `<p class="error" id="${name}-error">${escapeHtml(e[name])}</p>` : ''
    }`;
  const alert = e._ ? `<p class="error" role="alert">${escapeHtml(e._)}</p>` : '';
  const form =
    g.joinMode === 'closed'
      ? alert || '<p>This group is not taking new members at the moment.</p>'
      : `<h2>Ask to join</h2>${
          g.full
            ? '<p class="full">This group is full. Ask anyway and a leader will tell you when there is room.</p>'
            : ''
        }${alert}<form class="su" method="post" action="/c/${escapeHtml(
          c.handle,
        )}/groups/${g.id}/join">${field('name', 'Name', 'text', 'name', true)}${field('email', 'Email', 'email', 'email', true)}${field(
          'phone',
          'Phone',
          'tel',
          'tel',
          false,
        )}<label>Note (optional)<textarea name="note" rows="3">${escapeHtml(v.note ?? '')}</textarea></label>${
          e.note ? `<p class="error">${escapeHtml(e.note)}</p>` : ''
        }<button class="btn" type="submit">${g.joinMode === 'open' && !g.full ? 'Join' : 'Ask to join'}</button></form>`;
  return page(
    c,
    `${g.name} · ${c.churchName}`,
    `<section><div class="in"><h1>${escapeHtml(g.name)}</h1><ul class="groups">${card(c, g, false)}</ul><div class="card">${form}</div></div></section>`,
  );
}

/** The answer after asking to join. */
export function renderAsked(c: FinderChurch, groupName: string, outcome: 'joined' | 'requested'): string {
  const text =
    outcome === 'joined'
      ? `You have joined ${groupName}. We have emailed you; a leader will be in touch.`
      : `Thank you. Your request to join ${groupName} is with its leaders. We have emailed you.`;
  return page(
    c,
    outcome === 'joined' ? 'You have joined' : 'Request sent',
    `<section><div class="in card"><h1>${outcome === 'joined' ? 'You have joined' : 'Request sent'}</h1><p>${escapeHtml(
      text,
    )}</p><p><a href="/c/${escapeHtml(c.handle)}/groups">Back to the groups</a></p></div></section>`,
  );
}
