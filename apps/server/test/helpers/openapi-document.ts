import { buildOpenApiDocument } from '../../src/rest/openapi.js';

/** The server URL the fixture's document is built with (the document names it in `servers`). */
export const FIXTURE_SERVER_URL = 'http://localhost:3000';

/** Arrays whose order means nothing in an OpenAPI document, and the key each is sorted by. */
const unordered: Record<string, (item: unknown) => string> = {
  tags: (t) => String(t),
  required: (r) => String(r),
  security: (s) => JSON.stringify(s),
  parameters: (p) => {
    const { in: where, name } = p as { in: string; name: string };
    return `${where} ${name}`;
  },
};

/**
 * The document in one canonical order: object keys sorted at every depth, and the arrays whose
 * order carries no meaning (tags, required, security, parameters) sorted. Two documents that say
 * the same thing come out as the same JSON; an order that means something (enum, anyOf) is kept.
 */
export function canonicalOpenApi(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => canonicalOpenApi(v));
    const by = key !== undefined ? unordered[key] : undefined;
    return by ? items.sort((a, b) => (by(a) < by(b) ? -1 : by(a) > by(b) ? 1 : 0)) : items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonicalOpenApi((value as Record<string, unknown>)[k], k)]),
    );
  }
  return value;
}

/** The OpenAPI document as the fixture holds it: canonical JSON, two-space indented. */
export function openApiFixtureText(): string {
  return JSON.stringify(canonicalOpenApi(buildOpenApiDocument(FIXTURE_SERVER_URL)), null, 2) + '\n';
}
