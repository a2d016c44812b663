/**
 * Reading the reports a mail system sends back: delivery status notifications
 * (RFC 3464, a multipart/report with a message/delivery-status part) and complaint reports (ARF,
 * RFC 5965, a multipart/report with a message/feedback-report part). Plain text parsing of the
 * report parts' header-like fields: no MIME library needed for the fields that matter.
 */

export type BounceReport =
  | { kind: 'hard' | 'soft'; recipient: string | null; status: string; detail: string; messageIds: string[] }
  | { kind: 'complaint'; recipient: string | null; status: null; detail: string; messageIds: string[] };

/** Header-like `Name: value` fields (continuation lines folded), names lower case. */
function fields(block: string): Map<string, string> {
  const out = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (m && !out.has(m[1]!.toLowerCase())) out.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  return out;
}

/** The body of the MIME part whose Content-Type is `type` (the text after its headers, to the next boundary). */
function partOf(raw: string, type: string): string | null {
  const at = raw.search(new RegExp(`Content-Type:\\s*${type.replace('/', '\\/')}`, 'i'));
  if (at < 0) return null;
  const rest = raw.slice(at);
  const bodyStart = rest.search(/\r?\n\r?\n/);
  if (bodyStart < 0) return null;
  const body = rest.slice(bodyStart).replace(/^\r?\n\r?\n/, '');
  const end = body.search(/\r?\n--[^\r\n]+/);
  return end < 0 ? body : body.slice(0, end);
}

/**
 * Our Message-IDs quoted in a report (the returned message or its headers, a provider's event):
 * `delivery-<id>.<token>@host` (campaigns) or `journey-<id>.<token>@host`, as `<id>.<token prefix>`.
 */
export function ourMessageIds(raw: string): string[] {
  return [...raw.matchAll(/(?:delivery|journey)-(\d+)\.([0-9a-f]{12})@/g)].map((m) => `${m[1]}.${m[2]}`);
}

const addressOf = (v: string | undefined) =>
  v
    ? v
        .replace(/^[a-z0-9-]+;\s*/i, '')
        .replace(/[<>]/g, '')
        .trim()
    : null;

/**
 * The report in a received message, or null when it is neither a DSN nor an ARF report (an
 * auto-reply, a person's answer). A DSN whose action is 'failed' with a 5.x.x status is a hard
 * bounce; 'delayed' or a 4.x.x status is soft; 'delivered'/'relayed'/'expanded' are no bounce.
 */
export function parseReport(raw: string): BounceReport | null {
  const feedback = partOf(raw, 'message/feedback-report');
  if (feedback) {
    const f = fields(feedback);
    return {
      kind: 'complaint',
      recipient: addressOf(f.get('original-rcpt-to')) ?? null,
      status: null,
      detail: `Complaint (${f.get('feedback-type') ?? 'abuse'})${f.get('user-agent') ? ` from ${f.get('user-agent')}` : ''}`,
      messageIds: ourMessageIds(raw),
    };
  }
  const dsn = partOf(raw, 'message/delivery-status');
  if (!dsn) return null;
  // Per-message fields, a blank line, then per-recipient fields: the first recipient's are read.
  const blocks = dsn.split(/\r?\n\r?\n/).filter((b) => b.trim());
  const recipient = fields(blocks.find((b) => /Final-Recipient:|Action:/i.test(b)) ?? blocks[0] ?? '');
  const action = (recipient.get('action') ?? '').toLowerCase();
  const status = recipient.get('status') ?? '';
  if (['delivered', 'relayed', 'expanded'].includes(action)) return null;
  const hard = action === 'failed' && status.startsWith('5');
  const diagnostic = recipient.get('diagnostic-code')?.replace(/^smtp;\s*/i, '') ?? '';
  return {
    kind: hard ? 'hard' : 'soft',
    recipient: addressOf(recipient.get('final-recipient') ?? recipient.get('original-recipient')),
    status: status || (hard ? '5.0.0' : '4.0.0'),
    detail: `${status || action || 'Bounce'}${diagnostic ? ` ${diagnostic}` : ''}`.slice(0, 500),
    messageIds: ourMessageIds(raw),
  };
}

/** The delivery token in a VERP return path: `bounces+<token>@<bounce domain>`. */
export function verpToken(address: string): string | null {
  const m = /^bounces\+([0-9a-f]{16,128})@/i.exec(address.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** The return path of a delivery's message: bounces come back to it, and it names the delivery. */
export function verpAddress(token: string, bounceDomain: string): string {
  return `bounces+${token}@${bounceDomain}`;
}
