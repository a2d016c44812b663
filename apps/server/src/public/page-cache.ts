import crypto from 'node:crypto';

export interface CachedPage {
  /** null: no published page at this slug (the 404 page is served). */
  page: { id: number; userId: number } | null;
  html: string;
  etag: string;
  expiresAt: number;
}

/**
 * Rendered public pages by slug, for a few seconds. An edit, publish or delete through this
 * process drops the entry at once; other instances see the change when their entry expires
 * (`ttlMs`, default 5 s), and browsers revalidate with the ETag after their short max-age.
 */
export class PublicPageCache {
  private entries = new Map<string, CachedPage>();
  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 1_000,
  ) {}

  get(slug: string): CachedPage | undefined {
    const e = this.entries.get(slug);
    if (!e) return undefined;
    if (e.expiresAt < Date.now()) {
      this.entries.delete(slug);
      return undefined;
    }
    return e;
  }

  set(slug: string, page: CachedPage['page'], html: string): CachedPage {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const etag = `"${crypto.createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;
    const entry = { page, html, etag, expiresAt: Date.now() + this.ttlMs };
    this.entries.set(slug, entry);
    return entry;
  }

  invalidate(slugs: string[]): void {
    for (const s of slugs) this.entries.delete(s);
  }
}
