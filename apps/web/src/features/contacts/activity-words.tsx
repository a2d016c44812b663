import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { EventOut } from '@lampstand/api/schemas/events';
import { formatMoney } from '@lampstand/api/shared/format';
import { churchLocale } from '../../ui/format';
import { PROPOSAL_FIELD_LABELS, type ProposalField } from '@lampstand/api/schemas/portal';

// A person's events in plain words, with links to what they name ('Signed up on *Easter at Grace*
// — from the QR code *Lobby banner*'). Payloads are read loosely: an anonymised or older event
// still reads as a sentence.

type Ref = { id: number; name: string };
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const ref = (v: unknown): Ref | null =>
  v && typeof v === 'object' && 'name' in v ? { id: Number((v as Ref).id), name: str((v as Ref).name) } : null;

function named(r: Ref | null, to?: string): ReactNode {
  if (!r) return <em>something since deleted</em>;
  return to ? (
    <Anchor component={Link} to={to} fw={500}>
      {r.name}
    </Anchor>
  ) : (
    <b>{r.name}</b>
  );
}

const money = (cents: unknown, currency: unknown) =>
  formatMoney(Number(cents), { locale: churchLocale(), currency: str(currency) || 'USD' });

/** 'the QR code *Lobby banner*', 'the email *Advent news*', 'example.org' — where a sign-up or a gift came from. */
function fromSource(source: unknown): ReactNode {
  if (!source || typeof source !== 'object') return null;
  const s = source as { kind: string; id: number | null; name: string };
  const what: Record<string, string> = {
    qr: 'the QR code',
    link: 'the short link',
    email: 'the email',
    sms: 'the text',
    page: 'the page',
  };
  if (s.kind === 'direct') return null;
  const link = s.kind === 'email' && s.id ? `/email-campaigns/${s.id}` : undefined;
  return (
    <>
      {' — from '}
      {what[s.kind] ? `${what[s.kind]} ` : ''}
      {named({ id: s.id ?? 0, name: s.name }, link)}
    </>
  );
}

const VIA: Record<string, string> = {
  staff: 'by staff',
  import: 'from an import',
  api: 'through the API',
  signup: 'from a sign-up',
  donation: 'from a gift',
  portal: 'from the members’ portal',
};
const CHANNEL_WORD: Record<string, string> = { email: 'email', sms: 'texts' };

/** A changed field as the contact form names it ('postalCode' reads 'postcode'); an unknown one as stored. */
const FIELD_WORDS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  phone: 'phone',
  tags: 'tags',
  address: 'street address',
  city: 'city or town',
  state: 'state or region',
  postalCode: 'postcode',
  country: 'country',
  dateOfBirth: 'birthday',
  countryCode: 'phone country',
  isChurchMember: 'church member',
  isBaptised: 'baptised',
  isSeeker: 'seeker',
  isServiceStaff: 'service staff',
  staffRole: 'staff role',
  wwccNumber: 'WWCC number',
  notes: 'notes',
  website: 'website',
};
const fieldWord = (f: string) => FIELD_WORDS[f] ?? f;

/** 'Phone, Address': the fields a member proposed, as the form names them. */
const fieldWords = (fields: unknown) =>
  (Array.isArray(fields) ? fields : []).map((f) => PROPOSAL_FIELD_LABELS[f as ProposalField] ?? str(f)).join(', ');

/** A journey's step as it happened: 'Sent *Day 2 text*', 'Skipped *Welcome*: unsubscribed from email'. */
function journeyStepWords(d: Record<string, unknown>, journey: ReactNode): ReactNode {
  const step = (d.step ?? {}) as { kind?: string; name?: string };
  const name = <b>{str(step.name)}</b>;
  const detail = str(d.detail);
  if (d.outcome === 'skipped')
    return (
      <>
        Skipped {name} in {journey}
        {detail ? `: ${detail}` : ''}
      </>
    );
  if (d.outcome === 'failed')
    return (
      <>
        {name} in {journey} failed{detail ? `: ${detail}` : ''}
      </>
    );
  switch (step.kind) {
    case 'email':
    case 'sms':
      return <>Sent {name}</>;
    case 'wait':
      return (
        <>
          Waiting in {journey}: {detail}
        </>
      );
    case 'branch':
      return (
        <>
          In {journey}: {detail}
        </>
      );
    default:
      return detail ? <>{detail}</> : <>{name}</>;
  }
}

/** The sentence for one event. */
export function eventWords(e: EventOut): ReactNode {
  const d = e.data;
  const page = ref(d.page);
  const campaign = ref(d.campaign);
  const emailCampaign = named(campaign, campaign ? `/email-campaigns/${campaign.id}` : undefined);
  const smsCampaign = campaign ? named(campaign, '/sms-campaigns') : 'a text';
  const project = ref(d.project);
  // A church gift names its funds instead of a project: 'General ($30.00), Missions ($10.00)'.
  const funds = Array.isArray(d.funds)
    ? (d.funds as { fund?: unknown; amountCents?: unknown }[])
        .map((l) => `${ref(l.fund)?.name ?? 'a fund'} (${money(l.amountCents, d.currency)})`)
        .join(', ')
    : null;
  // A Show Up gift is a gift with one line to its project's fund: it names and links the project.
  const projectLink =
    funds && !project ? <b>{funds}</b> : named(project, project ? `/show-up/${project.id}` : undefined);
  const journey = ref(d.journey);
  const journeyLink = named(journey, journey ? `/journeys/${journey.id}` : undefined);
  const plan = ref(d.plan);
  const planPart = (
    <>
      {named(plan, plan ? `/service-planner/plans/${plan.id}` : undefined)}
      {d.position ? ` — ${str(d.position)}` : ''}
    </>
  );
  switch (e.type) {
    case 'contact.created':
      return `Added as a contact ${VIA[str(d.via)] ?? ''}`.trim();
    case 'contact.updated': {
      const changed = Array.isArray(d.changed) ? d.changed.map(String) : [];
      return changed.length ? `Details updated: ${changed.map(fieldWord).join(', ')}` : 'Details updated';
    }
    case 'contact.merged':
      return (
        <>Merged with {named(ref({ id: 0, name: str((d.merged as Ref | undefined)?.name) || 'another contact' }))}</>
      );
    case 'contact.deleted':
      return 'Deleted';
    case 'list.member_added':
      return <>Added to the list {named(ref(d.list), '/contacts?tab=lists')}</>;
    case 'list.member_removed':
      return <>Removed from the list {named(ref(d.list), '/contacts?tab=lists')}</>;
    case 'consent.changed': {
      const channel = CHANNEL_WORD[str(d.channel)] ?? str(d.channel);
      const verb = d.to === 'subscribed' ? `Subscribed to ${channel}` : `Unsubscribed from ${channel}`;
      return d.reason ? `${verb} — ${str(d.reason)}` : verb;
    }
    case 'signup.received':
      return (
        <>
          Signed up on {named(page, page ? `/landing-pages/${page.id}/stats` : undefined)}
          {fromSource(d.source)}
        </>
      );
    case 'signup.confirmed':
      return <>Confirmed their sign-up on {named(page, page ? `/landing-pages/${page.id}/stats` : undefined)}</>;
    // A journey's or a planner request's email names no campaign (its step says which one).
    case 'email.sent':
      return campaign ? <>Was sent {emailCampaign}</> : 'Was sent an email';
    case 'email.opened':
      return campaign ? <>Opened {emailCampaign}</> : 'Opened an email';
    case 'email.clicked':
      return (
        <>
          Clicked a link in {emailCampaign}: {str(d.url)}
        </>
      );
    case 'email.bounced':
      return (
        <>
          An email bounced{campaign ? <> ({emailCampaign})</> : null}: {str(d.reason)}
        </>
      );
    case 'email.complained':
      return <>Marked {campaign ? emailCampaign : 'an email'} as spam</>;
    case 'email.unsubscribed':
      return <>Unsubscribed{campaign ? <> from {emailCampaign}</> : null}</>;
    case 'sms.sent':
      return <>Was texted {smsCampaign}</>;
    case 'sms.delivered':
      return <>Received {smsCampaign}</>;
    case 'sms.failed':
      return (
        <>
          A text could not be delivered ({smsCampaign}): {str(d.reason)}
        </>
      );
    case 'sms.received':
      return d.keyword
        ? `Texted the church (keyword ${str(d.keyword)}): “${str(d.body)}”`
        : `Texted the church: “${str(d.body)}”`;
    case 'donation.succeeded':
      return (
        <>
          Gave {money(d.amountCents, d.currency)} to {projectLink}
          {fromSource(d.source)}
        </>
      );
    case 'donation.refunded':
      return (
        <>
          A gift of {money(d.amountCents, d.currency)} to {projectLink} was refunded
        </>
      );
    case 'donation.failed':
      return (
        <>
          A gift of {money(d.amountCents, d.currency)} to {projectLink} did not go through: {str(d.reason)}
        </>
      );
    case 'donation.disputed':
      return (
        <>
          A gift of {money(d.amountCents, d.currency)} to {projectLink} is disputed with the bank
        </>
      );
    case 'donation.dispute_closed':
      return (
        <>
          The dispute over a gift of {money(d.amountCents, d.currency)} was {d.won ? 'won' : 'lost'}
        </>
      );
    case 'plan.request_sent':
      return <>Was asked to serve: {planPart}</>;
    case 'plan.accepted':
      return <>Accepted {planPart}</>;
    case 'plan.declined':
      return <>Declined {planPart}</>;
    // Reminders, and slots offered to teammates.
    case 'plan.reminder_sent':
      return (
        <>
          Was reminded ({Number(d.daysBefore)} {Number(d.daysBefore) === 1 ? 'day' : 'days'} before): {planPart}
        </>
      );
    case 'plan.substitute_requested':
      return <>Asked teammates to cover: {planPart}</>;
    case 'plan.swap_requested':
      return <>Offered a swap: {planPart}</>;
    case 'plan.substitute_offered':
      return <>Was asked to cover: {planPart}</>;
    case 'plan.substitute_accepted':
      return (
        <>
          Covers for {str(d.covering)}: {planPart}
        </>
      );
    case 'plan.substitute_filled':
      return (
        <>
          {str(d.by)} covers {planPart}
        </>
      );
    case 'plan.substitute_unfilled':
      return <>Nobody covered {planPart}</>;
    case 'profile.update_proposed':
      return `Proposed new details in the members’ portal: ${fieldWords(d.fields)}`;
    case 'profile.update_approved':
      return `New details approved: ${fieldWords(d.fields)}`;
    case 'profile.update_rejected':
      return `New details rejected: ${fieldWords(d.fields)}`;
    // Journeys ('Entered *Welcome a first-time guest*', 'Sent *Day 2 text*').
    case 'journey.entered':
      return (
        <>
          Entered {journeyLink}
          {d.test ? ' (a test)' : ''}
        </>
      );
    case 'journey.step_done':
      return journeyStepWords(d, journeyLink);
    case 'journey.completed':
      return <>Finished {journeyLink}</>;
    case 'journey.converted':
      return (
        <>
          Reached the goal of {journeyLink}: {str(d.goal)}
        </>
      );
    case 'journey.exited':
      return (
        <>
          Left {journeyLink}: {str(d.reason)}
        </>
      );
    case 'task.assigned':
      return (
        <>
          Task {named(ref(d.task), '/tasks')} assigned to {str(d.assignee)}
        </>
      );
    case 'task.done':
      return (
        <>
          Task {named(ref(d.task), '/tasks')} done by {str(d.assignee)}
        </>
      );
    case 'checkin.checked_in':
      return (
        <>
          {str(ref(d.child)?.name)} checked in to {str(ref(d.room)?.name)}
          {d.firstTime === true ? ' (first time)' : ''}
        </>
      );
    case 'checkin.checked_out':
      return (
        <>
          {str(ref(d.child)?.name)} picked up from {str(ref(d.room)?.name)}
          {d.override ? ' (without the code, by staff)' : ''}
        </>
      );
    case 'registration.created':
      return (
        <>
          {str(d.status) === 'waitlisted' ? 'Joined the waitlist of ' : 'Registered for '}
          {named(ref(d.calendarEvent))}
        </>
      );
    case 'registration.confirmed':
      return <>Registration for {named(ref(d.calendarEvent))} confirmed</>;
    case 'registration.cancelled':
      return <>Registration for {named(ref(d.calendarEvent))} cancelled</>;
    case 'registration.checked_in':
      return <>Arrived at {named(ref(d.calendarEvent))}</>;
    default:
      return e.type;
  }
}

/**
 * Who did it: 'by staff' (or the account's name), 'through the API', 'by Ann Lee, in the portal';
 * nothing for a visitor of a public page.
 */
export function actorWords(e: EventOut): string | null {
  switch (e.actor.kind) {
    case 'user':
      return e.actor.name ? `by ${e.actor.name} (staff)` : 'by staff';
    case 'portal':
      return e.actor.name ? `by ${e.actor.name}, in the portal` : 'in the portal';
    case 'api_key':
      return 'through the API';
    case 'system':
      return 'by Lampstand';
    case 'station':
      return 'at a check-in station';
    default:
      return null;
  }
}

/** The timeline's filter: each kind of event, as a person names it. */
export const ACTIVITY_KINDS: { value: string; label: string }[] = [
  { value: 'signup', label: 'Sign-ups' },
  { value: 'donation', label: 'Gifts' },
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'Texts' },
  { value: 'plan', label: 'Serving' },
  { value: 'list', label: 'Lists' },
  { value: 'consent', label: 'Consent' },
  { value: 'contact', label: 'Details' },
  { value: 'profile', label: 'Profile updates' },
  { value: 'journey', label: 'Journeys' },
  { value: 'task', label: 'Tasks' },
  { value: 'checkin', label: 'Check-in' },
  { value: 'registration', label: 'Events' },
];
