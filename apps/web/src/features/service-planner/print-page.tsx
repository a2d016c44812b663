import { Alert, Anchor, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useParams, useSearchParams, Link } from 'react-router-dom';
import type { PlanItem } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { ChordChart, KEY_OPTIONS, dayLabel, minutesLabel, timeLabel } from './bits';
import classes from './print.module.css';

function SongSheet({ item }: { item: PlanItem }) {
  const song = item.song!;
  const key = song.keySignature ?? song.songKey;
  return (
    <section className={classes.song} aria-label={song.title}>
      <Title order={2} size="h3">
        {song.title}
      </Title>
      <Text size="sm" mb="sm">
        {[song.artist, key ? `Key of ${key}` : null, song.arrangement, song.notes].filter(Boolean).join(' · ')}
      </Text>
      {song.chords ? (
        <ChordChart chords={song.chords} fromKey={song.songKey} toKey={key} />
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {song.lyrics ?? ''}
        </Text>
      )}
    </section>
  );
}

/** Printable run sheet (times, items, people, song keys) or lyrics and chords for the band. */
export function PlanPrintPage() {
  const id = Number(useParams().id);
  const [params] = useSearchParams();
  const view = params.get('view') === 'chords' ? 'chords' : 'run-sheet';
  const plan = trpc.servicePlanner.plans.get.useQuery({ id }, { enabled: id > 0 });
  if (plan.isLoading) return <Loader aria-label="Loading" m="xl" />;
  if (!plan.data)
    return (
      <Alert color="red" m="xl" title="Plan not found">
        Failed to load service plans. Please try again.
      </Alert>
    );
  const p = plan.data;
  const songs = p.items.filter((i) => i.song);
  return (
    <main className={classes.sheet}>
      <Group justify="space-between" className={classes.noPrint} mb="md">
        <Anchor component={Link} to={`/service-planner/plans/${p.id}`} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={16} /> Back to plan
          </Group>
        </Anchor>
        <Group gap="xs">
          <Button
            variant="default"
            component={Link}
            to={
              view === 'chords'
                ? `/service-planner/plans/${p.id}/print`
                : `/service-planner/plans/${p.id}/print?view=chords`
            }
          >
            {view === 'chords' ? 'Run sheet' : 'Lyrics and chords'}
          </Button>
          <Button leftSection={<IconPrinter size={18} />} onClick={() => window.print()}>
            Print
          </Button>
        </Group>
      </Group>
      <Title order={1} size="h2">
        {p.title}
        {view === 'chords' ? ': Lyrics and Chords' : ': Run Sheet'}
      </Title>
      <Text size="sm" mb="md">
        {[
          dayLabel(p.date),
          p.startTime ? `${timeLabel(p.startTime)}${p.endTime ? ` – ${timeLabel(p.endTime)}` : ''}` : null,
          p.location,
          p.theme ? `Theme: ${p.theme}` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {view === 'run-sheet' ? (
        <Stack>
          <table className={classes.table}>
            <thead>
              <tr>
                <th>Time</th>
                <th>Item</th>
                <th>Length</th>
                <th>People</th>
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              {p.items.map((i) => (
                <tr key={i.id}>
                  <td>{timeLabel(i.startTime)}</td>
                  <td>
                    <strong>{i.title}</strong>
                    {i.type ? ` (${i.type.name})` : ''}
                    {i.song ? (
                      <div>
                        {i.song.title}
                        {(i.song.keySignature ?? i.song.songKey)
                          ? `, key of ${i.song.keySignature ?? i.song.songKey}`
                          : ''}
                      </div>
                    ) : null}
                  </td>
                  <td>{minutesLabel(i.duration)}</td>
                  <td>
                    {p.assignments
                      .filter((a) => a.itemId === i.id && a.status !== 'declined')
                      .map((a) => a.memberName)
                      .join(', ')}
                  </td>
                  <td>
                    {[i.isRehearsalNeeded ? 'Rehearsal needed' : null, i.notes, i.song?.arrangement]
                      .filter(Boolean)
                      .join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Text size="sm">
            Total {minutesLabel(p.times.totalMinutes)}
            {p.times.endsAt && p.startTime ? `, ends ${timeLabel(p.times.endsAt)}` : ''}
            {p.times.overBy ? ` (${minutesLabel(p.times.overBy)} over)` : ''}
          </Text>
          {p.assignments.length ? (
            <>
              <Title order={2} size="h4">
                Team
              </Title>
              <table className={classes.table}>
                <tbody>
                  {p.assignments
                    .filter((a) => a.status !== 'declined')
                    .map((a) => (
                      <tr key={a.id}>
                        <td>{a.positionName ?? ''}</td>
                        <td>{a.memberName}</td>
                        <td>{a.status === 'confirmed' ? 'Confirmed' : 'Not confirmed yet'}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </>
          ) : null}
        </Stack>
      ) : songs.length ? (
        songs.map((i) => <SongSheet key={i.id} item={i} />)
      ) : (
        <Text>No songs in this plan yet.</Text>
      )}
    </main>
  );
}

/** One song's chart printed in the key chosen (?key=A). */
export function SongPrintPage() {
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const song = trpc.servicePlanner.songs.get.useQuery({ id }, { enabled: id > 0 });
  if (song.isLoading) return <Loader aria-label="Loading" m="xl" />;
  if (!song.data)
    return (
      <Alert color="red" m="xl" title="Song not found">
        This song doesn&apos;t exist or you don&apos;t have permission to view it.
      </Alert>
    );
  const s = song.data;
  const key = params.get('key') ?? s.keySignature;
  return (
    <main className={classes.sheet}>
      <Group justify="space-between" className={classes.noPrint} mb="md" align="flex-end">
        <Anchor component={Link} to="/service-planner?tab=songs" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={16} /> Song Library
          </Group>
        </Anchor>
        <Group gap="xs" align="flex-end">
          <Select
            label="Key"
            data={KEY_OPTIONS}
            value={key}
            onChange={(v) => v && setParams({ key: v }, { replace: true })}
            disabled={!s.keySignature}
            w={150}
          />
          <Button leftSection={<IconPrinter size={18} />} onClick={() => window.print()}>
            Print
          </Button>
        </Group>
      </Group>
      <Title order={1} size="h2">
        {s.title}
      </Title>
      <Text size="sm" mb="md">
        {[
          s.artist,
          key ? `Key of ${key}` : null,
          s.tempo ? `${s.tempo} BPM` : null,
          s.timeSignature,
          s.ccliNumber ? `CCLI ${s.ccliNumber}` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {s.chords ? (
        <ChordChart chords={s.chords} fromKey={s.keySignature} toKey={key} />
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {s.lyrics ?? ''}
        </Text>
      )}
    </main>
  );
}
