import { describe, expect, it } from 'vitest';
import { renderCalendar, renderEventIcs } from './ical.js';

/** Content lines of an iCalendar text: CRLF line ends checked, folded lines joined (RFC 5545 §3.1). */
export function contentLines(ics: string): string[] {
  expect(ics.endsWith('\r\n')).toBe(true);
  expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const physical = ics.slice(0, -2).split('\r\n');
  for (const l of physical) expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
  return ics
    .slice(0, -2)
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n');
}

/** The text value of a property, RFC 5545 escapes undone. */
function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

const NAMES = (lines: string[]) => lines.map((l) => /^[A-Z-]+/.exec(l)?.[0] ?? `?${l}`);

const event = (title: string) =>
  renderEventIcs({
    uid: '7-e1@lampstand.test',
    title,
    date: '2030-05-01',
    startTime: '18:30',
    endTime: null,
    location: 'Park; gate 2, north',
    url: 'https://lampstand.test/p/picnic',
  });

describe('the iCalendar writer', () => {
  it.each([
    ['a bare CR', 'Picnic\rATTACH:https://evil.example/x'],
    ['a bare LF', 'Picnic\nATTACH:https://evil.example/x'],
    ['CRLF', 'Picnic\r\nATTACH:https://evil.example/x'],
    ['a semicolon and a comma', 'Picnic; bring food, drinks'],
    ['a backslash', 'Picnic \\ more'],
    ['200 characters with multibyte ones', 'Café ☕ 🎉 żółć '.repeat(14).slice(0, 200)],
  ])('%s in a title: one SUMMARY, no injected property, the text back as typed', (_label, title) => {
    const lines = contentLines(event(title));
    const names = NAMES(lines);
    expect(names.filter((n) => n === 'SUMMARY')).toHaveLength(1);
    expect(names).not.toContain('ATTACH');
    expect(names.every((n) => !n.startsWith('?'))).toBe(true);
    const summary = lines.find((l) => l.startsWith('SUMMARY:'))!.slice('SUMMARY:'.length);
    expect(unescapeText(summary)).toBe(title.replace(/\r\n|\r/g, '\n'));
    const location = lines.find((l) => l.startsWith('LOCATION:'))!.slice('LOCATION:'.length);
    expect(location).toBe('Park\\; gate 2\\, north');
  });

  it('writes floating local times, and an all-day event when no time is given', () => {
    const timed = contentLines(event('Picnic'));
    expect(timed).toContain('DTSTART:20300501T183000');
    const allDay = contentLines(
      renderEventIcs({
        uid: 'u@x',
        title: 'Fair',
        date: '2027-12-31',
        startTime: null,
        endTime: null,
        location: '',
        url: 'https://x',
      }),
    );
    expect(allDay).toContain('DTSTART;VALUE=DATE:20271231');
    expect(allDay).toContain('DTEND;VALUE=DATE:20280101');
    expect(NAMES(allDay)).not.toContain('LOCATION');
  });

  it('escapes a calendar name and event descriptions too', () => {
    const lines = contentLines(
      renderCalendar({ name: 'St Mark\r, Hope; Grace' }, [
        { start: new Date(Date.UTC(2030, 0, 1)), summary: 'x', description: 'a\rDTSTART:1' },
      ]),
    );
    expect(NAMES(lines).filter((n) => n === 'DTSTART')).toHaveLength(1);
    expect(lines).toContain('X-WR-CALNAME:St Mark\\n\\, Hope\\; Grace');
  });
});
