import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('qr_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('is_short_url', 'boolean', (c) => c.notNull().defaultTo(false))
    // Issued once, kept when the short link is switched off: a printed code never breaks.
    .addColumn('short_code', 'text', (c) => c.unique())
    .addColumn('foreground_color', 'text', (c) => c.notNull().defaultTo('#000000'))
    .addColumn('background_color', 'text', (c) => c.notNull().defaultTo('#FFFFFF'))
    .addColumn('corner_square_color', 'text')
    .addColumn('corner_dot_color', 'text')
    .addColumn('size', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(300)
        .check(sql`size between 100 and 1000`),
    )
    .addColumn('error_correction', 'text', (c) =>
      c
        .notNull()
        .defaultTo('M')
        .check(sql`error_correction in ('L', 'M', 'Q', 'H')`),
    )
    .addColumn('margin', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(4)
        .check(sql`margin between 0 and 20`),
    )
    .addColumn('logo_url', 'text')
    .addColumn('logo_upload_id', 'integer')
    .addColumn('light_on_dark_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('design', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    // Dated destinations: [{ url, startsAt, endsAt }], the first whose window holds now wins.
    .addColumn('schedule', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('qr_codes_user_idx').on('qr_codes').columns(['user_id', 'created_at']).execute();

  // One row per counted scan or click (crawlers and link previews are not counted).
  await db.schema
    .createTable('qr_code_scans')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('scanned_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('qr', 'link')`))
    .addColumn('device', 'text', (c) => c.notNull().check(sql`device in ('mobile', 'tablet', 'desktop', 'other')`))
    .addColumn('referrer_host', 'text')
    .execute();
  await db.schema
    .createIndex('qr_code_scans_code_time_idx')
    .on('qr_code_scans')
    .columns(['qr_code_id', 'scanned_at'])
    .execute();
  await db.schema.createIndex('qr_code_scans_user_idx').on('qr_code_scans').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_code_scans').execute();
  await db.schema.dropTable('qr_codes').execute();
}
