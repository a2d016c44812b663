import type { EventType } from '../schemas/events.js';
import { TEST_EVENT_TYPE } from '../schemas/webhooks.js';

/**
 * Each event type in a church's words ('A contact was added'), for the screens that list types
 * (a webhook's event types, its delivery log); the technical id stays for developers. Every type
 * has its words: a new type does not compile until it gets them.
 */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'contact.created': 'A contact was added',
  'contact.updated': "A contact's details were changed",
  'contact.merged': 'Two contacts were merged',
  'contact.deleted': 'A contact was deleted',
  'list.member_added': 'Someone was added to a list',
  'list.member_removed': 'Someone was removed from a list',
  'consent.changed': 'Someone subscribed or unsubscribed',
  'signup.received': 'Someone signed up on a page',
  'signup.confirmed': 'Someone confirmed their sign-up',
  'email.sent': 'An email was sent',
  'email.opened': 'An email was opened',
  'email.clicked': 'A link in an email was clicked',
  'email.bounced': 'An email could not be delivered',
  'email.complained': 'Someone marked an email as spam',
  'email.unsubscribed': 'Someone unsubscribed from email',
  'sms.sent': 'A text was sent',
  'sms.delivered': 'A text was delivered',
  'sms.failed': 'A text could not be delivered',
  'sms.received': 'A text came in',
  'donation.succeeded': 'A gift was received',
  'donation.refunded': 'A gift was refunded',
  'donation.failed': 'A gift did not go through',
  'donation.disputed': 'A gift was disputed with the bank',
  'donation.dispute_closed': 'A disputed gift was settled',
  'import.undone': 'A move-in import was undone',
  'group.member_joined': 'Someone joined a group',
  'group.member_left': 'Someone left a group',
  'group.join_requested': 'Someone asked to join a group',
  'group.attendance_recorded': "A group meeting's attendance was recorded",
  'campaign.sent': 'A campaign was sent',
  'social_post.published': 'A social post was published',
  'social_post.failed': 'A social post could not be published',
  'plan.request_sent': 'Someone was asked to serve',
  'plan.accepted': 'Someone accepted a date to serve',
  'plan.declined': 'Someone declined a date to serve',
  'plan.reminder_sent': 'A reminder to serve was sent',
  'plan.substitute_requested': 'Teammates were asked to cover a date',
  'plan.swap_requested': 'Someone asked to swap a date',
  'plan.substitute_offered': 'A date to cover was offered',
  'plan.substitute_accepted': 'A teammate offered to cover a date',
  'plan.substitute_filled': 'A date was covered',
  'plan.substitute_unfilled': 'Nobody could cover a date',
  'project.update_posted': 'A project update was posted',
  'profile.update_proposed': 'A member sent changes to their details',
  'profile.update_approved': "A member's changes were approved",
  'profile.update_rejected': "A member's changes were turned down",
  'journey.entered': 'Someone started a journey',
  'journey.step_done': 'A journey step was done',
  'journey.completed': 'Someone finished a journey',
  'journey.converted': 'Someone reached a journey goal',
  'journey.exited': 'Someone left a journey',
  'task.assigned': 'A follow-up task was assigned',
  'task.done': 'A follow-up task was done',
  'checkin.checked_in': 'A child was checked in',
  'checkin.checked_out': 'A child was picked up',
  'calendar_event.published': 'An event was published',
  'registration.created': 'Someone registered for an event',
  'registration.confirmed': 'A registration was confirmed',
  'registration.cancelled': 'A registration was cancelled',
  'registration.checked_in': 'Someone arrived at an event',
};

/** A type's words; the test event and a type unknown to this version read plainly too. */
export function eventDescription(type: string): string {
  if (type === TEST_EVENT_TYPE) return 'A test event';
  return (EVENT_DESCRIPTIONS as Record<string, string>)[type] ?? 'Another event';
}
