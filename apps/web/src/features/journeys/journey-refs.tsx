import { Autocomplete, Text, type AutocompleteProps, type TextProps } from '@mantine/core';
import { Fragment, useMemo } from 'react';
import { fillSample, type JourneyNames, type SampleValues } from '@lampstand/api/shared/journeys';
import { trpc } from '../../lib/trpc';
import { useSession } from '../../shell/session';
import { fullName } from '../contacts/labels';

export interface Option {
  value: string;
  label: string;
}

/**
 * What a journey's steps and trigger can name, read once for the editor: the church's lists,
 * landing pages, Show Up projects, giving funds, groups, contact tags and service-staff contacts, as picker options and as the names
 * `describeTrigger`/`describeJourney` put in words.
 */
export function useJourneyRefs() {
  const lists = trpc.contactLists.list.useQuery({ include_counts: true });
  const pages = trpc.landingPages.list.useQuery();
  const projects = trpc.showUp.list.useQuery({ ownedByMe: true, pageSize: 100 });
  const staff = trpc.contacts.find.useQuery({ tab: 'staff', page: 1, pageSize: 200 });
  const funds = trpc.funds.list.useQuery({});
  const tags = trpc.contacts.tags.useQuery();
  const groups = trpc.groups.list.useQuery({ limit: 1000 });
  // The person merge tags are filled from in the journey's words: the church's first contact, as
  // the email preview does ('Friend' before there is one).
  const first = trpc.contacts.find.useQuery({ page: 1, pageSize: 1 });
  const { user } = useSession();
  const churchName = user?.churchName ?? '';
  return useMemo(() => {
    const person = first.data?.items[0];
    const sample: SampleValues = person
      ? { firstName: person.firstName, lastName: person.lastName, churchName }
      : { firstName: 'Friend', lastName: '', churchName };
    const listName = new Map((lists.data ?? []).map((l) => [l.id, l.name]));
    const pageName = new Map((pages.data ?? []).map((p) => [p.id, p.name]));
    const projectName = new Map((projects.data?.items ?? []).map((p) => [p.id, p.title]));
    const fundName = new Map((funds.data ?? []).map((f) => [f.id, f.name]));
    const groupRows = groups.data && 'groups' in groups.data ? groups.data.groups : [];
    const groupName = new Map(groupRows.map((g) => [g.id, g.name]));
    const names: JourneyNames = {
      list: (id) => listName.get(id),
      page: (id) => pageName.get(id),
      project: (id) => projectName.get(id),
      fund: (id) => fundName.get(id),
      group: (id) => groupName.get(id),
    };
    const staffItems = (staff.data?.items ?? []).filter((c) => c.email);
    return {
      names,
      sample,
      fill: (text: string) => fillSample(text, sample),
      loading: lists.isLoading || pages.isLoading,
      lists: (lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name })),
      listCount: (id: number) => lists.data?.find((l) => l.id === id)?.contactCount,
      pages: (pages.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
      projects: (projects.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.title })),
      funds: (funds.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
      groups: groupRows.map((g) => ({ value: String(g.id), label: g.name })),
      tags: tags.data?.tags ?? [],
      staff: staffItems.map((c) => ({ value: String(c.id), label: `${fullName(c)} (${c.email})` })),
      staffName: (id: number) => {
        const c = staffItems.find((x) => x.id === id);
        return c ? fullName(c) : undefined;
      },
    };
  }, [
    lists.data,
    lists.isLoading,
    pages.data,
    pages.isLoading,
    projects.data,
    staff.data,
    funds.data,
    groups.data,
    tags.data,
    first.data,
    churchName,
  ]);
}
export type JourneyRefs = ReturnType<typeof useJourneyRefs>;

/** A sentence from `describe…` with its *names* in bold. */
export function Words({ text, ...props }: { text: string } & TextProps) {
  const parts = text.split(/\*([^*]+)\*/g);
  return (
    <Text {...props}>{parts.map((p, i) => (i % 2 === 1 ? <b key={i}>{p}</b> : <Fragment key={i}>{p}</Fragment>))}</Text>
  );
}

/**
 * A journey's summary, its merge tags filled from the sample person, and who that is when it had
 * any ('Follow up with Maria', not 'Follow up with {{firstName}}').
 */
export function SummaryWords({ raw, sample }: { raw: string; sample: SampleValues }) {
  const filled = fillSample(raw, sample);
  return (
    <>
      <Words text={filled} size="sm" data-testid="journey-summary" />
      {filled !== raw ? (
        <Text size="xs" c="dimmed">
          Merge tags filled from {`${sample.firstName} ${sample.lastName}`.trim()}
        </Text>
      ) : null}
    </>
  );
}

/**
 * A tag for a step, a branch or a goal: one of the church's tags (those on its contacts) picked
 * from the list as it is typed, or a new one typed in full.
 */
export function TagPicker({ tags, ...props }: { tags: string[] } & Omit<AutocompleteProps, 'data'>) {
  return (
    <Autocomplete
      data={tags}
      placeholder={tags.length ? 'Pick a tag or type a new one' : 'Type a tag, e.g. newcomer'}
      description={tags.length ? 'One of your tags, or a new one' : undefined}
      limit={50}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
