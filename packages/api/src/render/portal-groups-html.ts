import { escapeHtml as e } from './html.js';
import { csrfField } from './portal-html.js';
import { GROUP_ATTENDANCE_SCRIPT } from './portal-groups-script.js';
import { groupMessageSection, type MessageFormState } from './portal-group-message-html.js';
import type { GroupMember, Meeting } from '../schemas/groups-people.js';
import type { PortalGroup, PortalLedGroup } from '../services/groups/portal.js';
import { formatLongDate, formatNumber, formatWallTime, type Locale } from '../shared/format.js';

// 'My groups' in the members' portal: a member's groups with the next meeting (and leaving one); a
// leader's roster, join requests and attendance. Plain forms; the one script keeps attendance on the
// phone until it is sent.

const script = `<script>${GROUP_ATTENDANCE_SCRIPT}</script>`;
/** Where the script says what happened to attendance kept on the phone. */
const statusLine = `<div id="attendance-status" class="note" role="status" aria-live="polite"></div>`;
const STYLE = `<style>#attendance-status:empty{display:none}.tag{display:inline-block;background:#edf2ff;color:#364fc7;border-radius:6px;padding:0 8px;font-size:.9rem;font-weight:600}
.tag.done{background:#d3f9d8;color:#1b5e20}.who{display:flex;flex-direction:column;gap:0}.who .check{border-bottom:1px solid #f1f3f5;padding:12px 0}.who .check label{font-size:1.05rem}
.btn.big{display:block;width:100%;text-align:center;font-size:1.05rem;padding:14px 20px}.people li{display:flex;flex-direction:column}</style>`;

const when = (date: string | null, time: string | null, o: Locale) =>
  date ? `${formatLongDate(date, o)}${time ? ` at ${formatWallTime(time, o)}` : ''}` : 'By arrangement';

/** The finder for someone in no group: `/c/{handle}/groups`. */
const finderOf = (base: string) => base.replace(/\/me$/, '/groups');

export function myGroupsSection(base: string, csrf: string, groups: PortalGroup[], o: Locale = {}): string {
  if (groups.length === 0)
    return (
      `<div class="card"><p>You are not in a group yet.</p><p><a class="btn" href="${e(finderOf(base))}">Find a group</a></p></div>` +
      statusLine +
      STYLE +
      script
    );
  const cards = groups.map((g) => {
    const h = `g${g.id}`;
    const lead =
      g.role === 'leader'
        ? `<div class="row" style="margin:12px 0 0"><a class="btn" href="${e(base)}/groups/${g.id}/attendance">Take attendance</a>` +
          `<a class="btn light" href="${e(base)}/groups/${g.id}">Roster and requests</a></div>`
        : '';
    return (
      `<section class="card" aria-labelledby="${h}"><h2 id="${h}">${e(g.name)}</h2>` +
      `<p style="margin:0 0 4px"><span class="tag">${g.role === 'leader' ? 'You lead this group' : 'Member'}</span> <span class="muted">${e(g.type)}${g.area ? ` · ${e(g.area)}` : ''}</span></p>` +
      `<p style="margin:0"><strong>Next meeting:</strong> ${e(when(g.nextMeeting, g.time, o))}</p>${lead}` +
      `<details><summary>Leave this group</summary><p class="muted">You will no longer be on ${e(g.name)}'s roster. Your past attendance is kept.</p>` +
      `<form method="post" action="${e(base)}/groups/${g.id}/leave">${csrfField(csrf)}<button class="btn light" type="submit">Leave ${e(g.name)}</button></form></details></section>`
    );
  });
  return statusLine + cards.join('') + STYLE + script;
}

const contactLines = (m: { email: string | null; phone: string | null }) =>
  [
    m.phone ? `<a href="tel:${e(m.phone.replace(/[^\d+]/g, ''))}">${e(m.phone)}</a>` : '',
    m.email ? `<a href="mailto:${e(m.email)}">${e(m.email)}</a>` : '',
  ]
    .filter(Boolean)
    .join(' · ');

function rosterList(roster: GroupMember[]): string {
  return `<ul class="plain people">${roster
    .map(
      (m) =>
        `<li><span><strong>${e(m.name)}</strong>${m.role === 'leader' ? ' <span class="tag">Leader</span>' : ''}</span>` +
        `<span>${contactLines(m) || '<span class="muted">No phone or email</span>'}</span>` +
        `<span class="muted">${m.meetings ? `Came to ${formatNumber(m.attended)} of ${formatNumber(m.meetings)} meeting${m.meetings === 1 ? '' : 's'}` : 'No attendance yet'}</span></li>`,
    )
    .join('')}</ul>`;
}

const meetingWords = (m: Meeting) =>
  m.recorded
    ? `${formatNumber(m.present.length)} present${m.visitors.length ? `, ${formatNumber(m.visitors.length)} visitor${m.visitors.length === 1 ? '' : 's'}` : ''}`
    : 'Attendance not taken';

/** A leader's page of their group. */
export function ledGroupSection(
  base: string,
  csrf: string,
  v: PortalLedGroup,
  o: Locale = {},
  message?: MessageFormState,
): string {
  const g = v.group;
  const at = `${e(base)}/groups/${g.id}`;
  const earlier = v.choices
    .filter((c) => !c.today)
    .map(
      (c) =>
        `<li><a href="${at}/attendance?date=${c.date}">${e(formatLongDate(c.date, o))}</a>${c.recorded ? ' <span class="tag done">Taken</span>' : ''}</li>`,
    )
    .join('');
  const choices =
    `<p style="margin:0 0 8px"><a class="btn big" href="${at}/attendance?date=${v.today}">Take today's attendance</a></p>` +
    (earlier ? `<h3>Or an earlier meeting</h3><ul class="plain">${earlier}</ul>` : '');
  const requests = v.requests.length
    ? `<ul class="plain people">${v.requests
        .map(
          (r) =>
            `<li><strong>${e(r.name)}</strong><span>${contactLines(r)}</span>${r.note ? `<span class="muted">“${e(r.note)}”</span>` : ''}` +
            `<div class="row" style="margin-top:8px">` +
            (['approve', 'decline'] as const)
              .map(
                (d) =>
                  `<form method="post" action="${at}/requests/${r.id}">${csrfField(csrf)}<input type="hidden" name="decision" value="${d}">` +
                  `<button class="btn${d === 'decline' ? ' light' : ''}" type="submit" aria-label="${d === 'approve' ? 'Approve' : 'Decline'} ${e(r.name)}">${d === 'approve' ? 'Approve' : 'Decline'}</button></form>`,
              )
              .join('') +
            `</div></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">Nobody is waiting.</p>';
  const meetings = v.meetings.length
    ? `<ul class="plain">${v.meetings.map((m) => `<li>${e(formatLongDate(m.date, o))}: ${e(meetingWords(m))}</li>`).join('')}</ul>`
    : '<p class="muted">No meetings in the last four weeks.</p>';
  return (
    `<p><a href="${e(base)}/groups">← My groups</a></p>${statusLine}` +
    `<section class="card" aria-labelledby="take"><h2 id="take">Attendance</h2>${choices}</section>` +
    `<section class="card" aria-labelledby="asking"><h2 id="asking">Asking to join (${formatNumber(v.requests.length)})</h2>${requests}</section>` +
    `<section class="card" aria-labelledby="roster"><h2 id="roster">Members (${formatNumber(v.roster.length)})</h2>${rosterList(v.roster)}</section>` +
    groupMessageSection(at, csrf, message) +
    `<section class="card" aria-labelledby="recent"><h2 id="recent">Recent meetings</h2>${meetings}</section>` +
    STYLE +
    script
  );
}

/** Three taps: the meeting is open, everyone is ticked (untick who was away), Save. */
export function attendanceSection(
  base: string,
  csrf: string,
  v: {
    group: PortalGroup;
    date: string;
    today: boolean;
    roster: GroupMember[];
    meeting: Meeting | null;
    clientKey: string;
    error?: string;
  },
  o: Locale = {},
): string {
  const at = `${base}/groups/${v.group.id}`;
  const recorded = v.meeting?.recorded ? new Set(v.meeting.present.map((p) => p.contactId)) : null;
  const day = formatLongDate(v.date, o);
  const label = `${v.group.name}, ${day}`;
  const people = v.roster
    .map(
      (m) =>
        `<div class="check"><input type="checkbox" id="p${m.contactId}" name="present" value="${m.contactId}"${!recorded || recorded.has(m.contactId) ? ' checked' : ''}>` +
        `<label for="p${m.contactId}">${e(m.name)}</label></div>`,
    )
    .join('');
  const visitors = [...(v.meeting?.visitors ?? []), ''];
  const visitorFields = visitors
    .map(
      (name, i) =>
        `<div class="field"><label for="visitor-${i + 1}">Visitor ${i + 1} (name)</label><input id="visitor-${i + 1}" name="visitor" type="text" autocomplete="off" value="${e(name)}"></div>`,
    )
    .join('');
  return (
    `<p><a href="${e(at)}">← ${e(v.group.name)}</a></p>` +
    `<p><strong>${e(v.group.name)}</strong> · ${e(v.today ? `Today, ${day}` : day)}</p>` +
    (recorded ? `<p class="note">Attendance was taken for this meeting: saving again replaces it.</p>` : '') +
    statusLine +
    (v.error ? `<p class="err" role="alert">${e(v.error)}</p>` : '') +
    `<form id="attendance-form" class="card" method="post" action="${e(at)}/attendance" data-json="${e(base)}/api/groups/${v.group.id}/attendance" data-label="${e(label)}">` +
    `${csrfField(csrf)}<input type="hidden" name="date" value="${e(v.date)}"><input type="hidden" name="clientKey" value="${e(v.clientKey)}">` +
    `<fieldset><legend>Who came</legend><p class="muted" style="margin:0">${recorded ? 'Ticked: who came.' : 'Everyone is ticked: untick anyone who was away.'}</p><div class="who">${people || '<p>Nobody is in this group yet.</p>'}</div></fieldset>` +
    `<fieldset style="margin-top:16px"><legend>Visitors</legend><div id="visitors">${visitorFields}</div>` +
    `<button class="btn light" type="button" id="add-visitor" hidden>Add another visitor</button></fieldset>` +
    `<p style="margin:16px 0 0"><button class="btn big" type="submit">Save attendance</button></p></form>` +
    STYLE +
    script
  );
}
