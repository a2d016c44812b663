import ical, { escape, ICalEventStatus, type ICalCalendarData, type ICalEventData } from 'ical-generator';

// The one iCalendar writer: every .ics the server sends (a landing page's event, the social posts
// feed) is written by the maintained `ical-generator`, which escapes text as RFC 5545 says
// (\\ ; , and every newline — \r\n, \r or \n — as \n, so a bare \r in a title cannot start a new
// property), folds lines at 75 octets without splitting a UTF-8 character and ends lines with CRLF.

export { ICalEventStatus };
export type CalendarEvent = ICalEventData;

/** A calendar of `events` as iCalendar text. */
export function renderCalendar(calendar: Omit<ICalCalendarData, 'events'>, events: readonly CalendarEvent[]): string {
  // ical-generator writes the calendar's own name and description as given: escaped here.
  const cal = ical({
    ...calendar,
    ...(calendar.name ? { name: escape(calendar.name, false) } : {}),
    ...(calendar.description ? { description: escape(calendar.description, false) } : {}),
  });
  for (const e of events) cal.createEvent(e);
  // Every content line ends with CRLF, the last one too (ical-generator leaves it off).
  return `${cal.toString()}\r\n`;
}

/**
 * An iCalendar file for a landing page's event block: floating local time, as the church typed it
 * (no time zone), or an all-day event when no start time is given.
 */
export function renderEventIcs(opts: {
  uid: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  startTime: string | null;
  endTime: string | null;
  location: string;
  url: string;
}): string {
  // Floating times are written from the Date's UTC fields, so the typed wall time goes in as UTC.
  const at = (time: string) => new Date(`${opts.date}T${time}:00Z`);
  const day = new Date(`${opts.date}T00:00:00Z`);
  const event: CalendarEvent = opts.startTime
    ? {
        id: opts.uid,
        start: at(opts.startTime),
        ...(opts.endTime ? { end: at(opts.endTime) } : {}),
        floating: true,
      }
    : { id: opts.uid, start: day, end: new Date(day.getTime() + 86_400_000), allDay: true };
  return renderCalendar({ prodId: { company: 'Lampstand', product: 'Landing pages', language: 'EN' } }, [
    {
      ...event,
      stamp: new Date(),
      summary: opts.title,
      ...(opts.location ? { location: opts.location } : {}),
      url: opts.url,
    },
  ]);
}
