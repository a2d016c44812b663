import { RELATIONSHIPS, STAFF_ROLES, inverseRelationship } from '@lampstand/api/schemas/contacts';
import type { RouterOutputs } from '@lampstand/api';

export type Contact = RouterOutputs['contacts']['get'];
export type ContactList = RouterOutputs['contactLists']['list'][number];
export type FamilyItem = RouterOutputs['family']['list'][number];
export type Child = RouterOutputs['children']['list'][number];

export function fullName(c: { firstName: string; lastName: string }): string {
  return `${c.firstName} ${c.lastName}`.trim();
}

export function staffRoleLabel(value: string | null | undefined): string {
  return STAFF_ROLES.find((r) => r.value === value)?.label ?? '';
}

/** How a family link reads on this contact's page: a stored 'parent' shows as Child when isInverse. */
export function relationshipLabel(item: { relationship: FamilyItem['relationship']; isInverse: boolean }): string {
  const r = item.isInverse ? inverseRelationship(item.relationship) : item.relationship;
  return RELATIONSHIPS.find((x) => x.value === r)?.label ?? r;
}

export const LIST_TYPE_LABELS: Record<string, string> = { email: 'Email', sms: 'SMS', both: 'Email & SMS' };
