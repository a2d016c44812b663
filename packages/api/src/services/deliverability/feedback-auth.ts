import { authenticate } from 'mailauth';
import { dnsResolver } from './sending-domains.js';

/**
 * Complaints by mail (ARF reports to the bounce receiver) are believed only from a mailbox
 * provider's feedback loop: the report must be authenticated — a DKIM signature
 * that verifies, or an SPF pass for its envelope sender — by a domain of FEEDBACK_LOOP_SENDERS,
 * and its From must be of the same sender. Anyone can write an ARF report quoting a newsletter's
 * Message-ID; only the provider can sign as itself. Checked with the `mailauth` package, its DNS
 * lookups through DNS_SERVER when set (the same resolver a sending domain's Verify uses).
 */
export interface FeedbackLoopConfig {
  /** FEEDBACK_LOOP_SENDERS: the domains complaint reports come from (e.g. `fbl.example.net`); none: every complaint by mail is ignored. */
  senders: readonly string[];
  /** DNS_SERVER (host or host:port) for the DKIM keys and SPF records; default the system's. */
  dnsServer?: string;
}

/** What the receiving SMTP session knows about the report's sender. */
export interface ReportEnvelope {
  /** The connecting client's address. */
  ip: string;
  /** Its EHLO/HELO name. */
  helo: string;
  /** MAIL FROM ('' for the null sender). */
  sender: string;
}

const bare = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');

/** The configured sender `domain` is, or is under; null when none. */
function senderOf(domain: string, senders: readonly string[]): string | null {
  const d = bare(domain);
  return senders.map(bare).find((s) => d === s || d.endsWith(`.${s}`)) ?? null;
}

/**
 * The feedback-loop sender that authenticated this report, or null: DKIM (d=) or SPF (the
 * envelope's domain) passes for a configured sender, and the report's From is that sender's too.
 */
export async function authenticatedFeedbackSender(
  raw: string,
  envelope: ReportEnvelope,
  config: FeedbackLoopConfig,
): Promise<string | null> {
  if (config.senders.length === 0) return null;
  const resolver = dnsResolver({ dnsServer: config.dnsServer });
  const result = await authenticate(raw, {
    ip: envelope.ip,
    helo: envelope.helo,
    sender: envelope.sender,
    mta: 'lampstand',
    // mailauth asks for TXT, A, AAAA, MX and PTR records: strings or lists of strings.
    resolver: (name: string, rrtype: string) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>,
    disableArc: true,
    disableBimi: true,
    disableDmarc: true,
  });
  const fromDomains = (result.dkim.headerFrom ?? []).map((a) => a.split('@').pop() ?? '');
  if (fromDomains.length !== 1) return null;
  const sender = senderOf(fromDomains[0]!, config.senders);
  if (!sender) return null;
  const passed = [
    ...(result.dkim.results ?? []).flatMap((r) =>
      r.status?.result === 'pass' && r.signingDomain ? [r.signingDomain] : [],
    ),
    ...(result.spf && result.spf.status.result === 'pass' && result.spf.domain ? [result.spf.domain] : []),
  ];
  return passed.some((d) => senderOf(d, config.senders) === sender) ? sender : null;
}
