import { z } from 'zod';
import { idSchema } from './common.js';

export const DOMAIN_MESSAGE = 'Enter a domain, e.g. gracechurch.org';

/** A host name of two labels or more: letters, digits and hyphens, a top-level label of letters. */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The church's domain as typed ('GraceChurch.org.' reads as 'gracechurch.org'). */
export const domainSchema = z
  .string({ error: DOMAIN_MESSAGE })
  .trim()
  .max(253, DOMAIN_MESSAGE)
  .transform((s) => s.toLowerCase().replace(/\.$/, ''))
  .refine((s) => DOMAIN.test(s), DOMAIN_MESSAGE);

export const addSendingDomainInput = z.object({ domain: domainSchema });
export type AddSendingDomainInput = z.input<typeof addSendingDomainInput>;
export const sendingDomainIdSchema = z.object({ id: idSchema('Sending domain ID') });

export const DNS_RECORD_KEYS = ['dkim', 'spf', 'dmarc', 'returnPath'] as const;
export type DnsRecordKey = (typeof DNS_RECORD_KEYS)[number];

/** One DNS record the church adds at its DNS host, and what the last Verify found. */
export const dnsRecordSchema = z.object({
  key: z.enum(DNS_RECORD_KEYS),
  /** 'DKIM', 'SPF', 'DMARC', 'Return path'. */
  label: z.string(),
  type: z.enum(['TXT', 'CNAME']),
  /** The full name of the record, e.g. 'ls1._domainkey.gracechurch.org'. */
  name: z.string(),
  value: z.string(),
  /** DMARC is a suggestion: the domain verifies without it. */
  required: z.boolean(),
  /** Unchecked until the first Verify. */
  status: z.enum(['unchecked', 'ok', 'missing', 'wrong']),
  /** What was found when it is wrong or missing, in words. */
  problem: z.string().nullable(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const sendingDomainSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  status: z.enum(['pending', 'verified']),
  /** The address the church's mail is sent From once verified. */
  fromAddress: z.string(),
  records: z.array(dnsRecordSchema),
  verifiedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type SendingDomain = z.infer<typeof sendingDomainSchema>;
