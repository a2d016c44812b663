import { sql, type Db } from '@lampstand/db';
import { SHARED_NUMBER_ROUTING_DAYS, type SharedCandidate } from './shared-number.js';

/** A stored text (a row of sms_inbound_messages) being processed. */
export interface StoredText {
  id: number;
  from: string;
  to: string;
  /** The Messaging Service it came through (a church's own service routes by it), if any. */
  service: string | null;
  body: string;
  receivedAt: Date;
}

/**
 * Where a text goes (see `processTexts`): `own`, a church's own number (or Messaging Service);
 * `reached`, a church's number or the shared platform number (a text to neither, or from nobody,
 * is kept but goes nowhere). On the shared number, `candidates` are the churches that texted the
 * sender in the window, and `churches` is filled by `SharedNumberRouter`.
 */
export interface Route {
  churches: number[];
  own: boolean;
  reached: boolean;
  candidates: SharedCandidate[];
}

/** Where each text goes, for all of them in one statement. */
export async function routeTexts(trx: Db, texts: StoredText[], platformNumber: string) {
  const { rows } = await sql<{ n: number; owners: number[]; shared: { churchId: number; lastSentAt: string }[] }>`
    select t.n::int,
      array(select s.user_id from church_settings s where s.sms_from_number = t.to_number
            union select s.user_id from church_settings s where s.sms_messaging_service_sid = t.service
            order by 1) as owners,
      case when t.to_number = ${platformNumber} and t.from_number <> '' then (
        select coalesce(jsonb_agg(jsonb_build_object('churchId', x.user_id, 'lastSentAt', x.last_sent_at)
                                  order by x.user_id), '[]'::jsonb)
        from (
          select d.user_id, max(d.sent_at) as last_sent_at from deliveries d
          left join church_settings s on s.user_id = d.user_id
          where d.channel = 'sms' and d.address = t.from_number
            and d.sent_at > now() - make_interval(days => ${SHARED_NUMBER_ROUTING_DAYS})
            and (s.sms_from_number is null or s.sms_from_number = '') and s.sms_messaging_service_sid is null
          group by d.user_id) x) else '[]'::jsonb end as shared
    from unnest(${texts.map((t) => t.to)}::text[], ${texts.map((t) => t.from)}::text[],
                ${texts.map((t) => t.service)}::text[])
      with ordinality as t(to_number, from_number, service, n)
    order by t.n`.execute(trx);
  return rows.map((r): Route => {
    const text = texts[r.n - 1]!;
    if (!text.from) return { churches: [], own: false, reached: false, candidates: [] };
    if (r.owners.length > 0) return { churches: r.owners, own: true, reached: true, candidates: [] };
    const shared = text.to === platformNumber;
    const candidates = shared
      ? r.shared.map((c) => ({ churchId: c.churchId, lastSentAt: new Date(c.lastSentAt) }))
      : [];
    return { churches: [], own: false, reached: shared, candidates };
  });
}
