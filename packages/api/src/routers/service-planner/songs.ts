import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  createSongSchema,
  importSongsResultSchema,
  importSongsSchema,
  listSongsSchema,
  okIdSchema,
  songFileSchema,
  songIdSchema,
  songSchema,
  songUsageInputSchema,
  songUsageOutputSchema,
  updateSongSchema,
} from '../../schemas/service-planner.js';
import { importChordProFiles, songChordProFile, songUsageReport } from '../../services/service-planner/song-files.js';
import { createSong, deleteSong, getSong, listSongs, updateSong } from '../../services/service-planner/songs.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const songsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/songs', 'Songs, searched by title, artist or tag (search, tag)'))
    .input(listSongsSchema)
    .output(z.array(songSchema))
    .query(({ ctx, input }) => listSongs(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/service-planner/songs/{id}', 'A song with when it was last used and uses in the last 90 days'))
    .input(songIdSchema)
    .output(songSchema)
    .query(({ ctx, input }) => getSong(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/songs', 'Create a song', { status: 201 }))
    .input(createSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => createSong(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/songs/{id}', 'Change a song (partial)'))
    .input(updateSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => updateSong(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/songs/{id}', 'Delete a song'))
    .input(songIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteSong(ctx.db, ctx.tenantId, input)),
  importChordPro: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/songs/import',
        'Import ChordPro files (.cho, .chordpro, .pro; each at most 1 MB, several songs split at {new_song}) as songs',
        { status: 201, bodyLimit: 21 * 1024 * 1024 },
      ),
    )
    .input(importSongsSchema)
    .output(importSongsResultSchema)
    .mutation(({ ctx, input }) => importChordProFiles(ctx.db, ctx.tenantId, input)),
  chordPro: protectedProcedure
    .meta(
      rest.get('/api/service-planner/songs/{id}/chordpro', 'A song as a ChordPro file', {
        format: 'file',
        fileTypes: ['text/plain'],
      }),
    )
    .input(songIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => songChordProFile(ctx.db, ctx.tenantId, input)),
});

export const reportsRouter = router({
  songUsage: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/reports/song-usage',
        'Songs used by the plans dated from–to, counted once per service time (JSON, or CSV with Accept: text/csv)',
        { csvWhenAccepted: true },
      ),
    )
    .input(songUsageInputSchema)
    .output(songUsageOutputSchema)
    .query(({ ctx, input }) => songUsageReport(ctx.readDb, ctx.tenantId, input)),
});
