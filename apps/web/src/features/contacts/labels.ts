import { STAFF_ROLES } from '@lampstand/api/schemas/contacts';
import { inverseRelationship } from '@lampstand/api/shared/contacts';
import type { RouterOutputs } from '@lampstand/api';

export type Contact = RouterOutputs['contacts']['get'];
export type ContactList = RouterOutputs['contactLists']['list'][number];
export type FamilyItem = RouterOutputs['family']['list'][number];
export type Child = RouterOutputs['children']['list'][number];

export { fullName } from './full-name';

export function staffRoleLabel(value: string | null | undefined): string {
  return STAFF_ROLES.find((r) => r.value === value)?.label ?? '';
}

export const LIST_TYPE_LABELS: Record<string, string> = { email: 'Email', sms: 'SMS', both: 'Email & SMS' };

const RELATIONSHIP_NOUNS: Record<string, string> = {
  spouse: 'spouse',
  parent: 'parent',
  child: 'child',
  sibling: 'sibling',
  other: 'relative',
};

/**
 * The rest of the sentence after the related contact's name, with its direction:
 * "is Mary's child" when the linked contact is this contact's child.
 */
export function relationshipSentence(
  item: { relationship: FamilyItem['relationship']; isInverse: boolean },
  of: { firstName: string },
): string {
  const r = item.isInverse ? inverseRelationship(item.relationship) : item.relationship;
  return `is ${of.firstName}'s ${RELATIONSHIP_NOUNS[r] ?? r}`;
}
