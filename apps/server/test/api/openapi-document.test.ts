import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { canonicalOpenApi, FIXTURE_SERVER_URL } from '../helpers/openapi-document.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/openapi.json', import.meta.url), 'utf8')) as unknown;

describe('the OpenAPI document', () => {
  it('is the committed document (test/fixtures/openapi.json), order aside', () => {
    // A meant change of the API: `pnpm --filter @lampstand/server openapi:write`, and review the diff.
    expect(canonicalOpenApi(buildOpenApiDocument(FIXTURE_SERVER_URL))).toEqual(fixture);
  });

  it('compares documents ignoring the order of keys, tags and parameters, not their content', () => {
    const a = {
      paths: {
        '/x': {
          get: {
            tags: ['A', 'B'],
            parameters: [
              { name: 'q', in: 'query' },
              { name: 'id', in: 'path' },
            ],
          },
        },
      },
    };
    const b = {
      paths: {
        '/x': {
          get: {
            parameters: [
              { in: 'path', name: 'id' },
              { in: 'query', name: 'q' },
            ],
            tags: ['B', 'A'],
          },
        },
      },
    };
    expect(canonicalOpenApi(a)).toEqual(canonicalOpenApi(b));
    expect(canonicalOpenApi({ enum: ['a', 'b'] })).not.toEqual(canonicalOpenApi({ enum: ['b', 'a'] }));
    const renamed = structuredClone(b);
    renamed.paths['/x'].get.parameters[1]!.name = 'query';
    expect(canonicalOpenApi(a)).not.toEqual(canonicalOpenApi(renamed));
  });
});
