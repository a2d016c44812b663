import { importSourceIdSchema } from '@lampstand/api/schemas/imports';

/**
 * HTTP routes under /api that are Fastify plugins rather than procedures' REST routes (their body
 * is not JSON), documented by hand here so the OpenAPI document lists them too. Each entry must
 * match what its plugin does (tested in test/api/openapi.test.ts and the plugin's own tests).
 */
export interface PluginRouteDoc {
  method: 'POST';
  path: string;
  /** The plugin that serves it, for whoever changes one and not the other. */
  plugin: string;
  access: 'signed-in' | 'public';
  /** Path parameters ({provider}), each a string of these values. */
  pathParams?: Record<string, string[]>;
  tag: string;
  summary: string;
  status: number;
  requestBody: Record<string, unknown>;
  response: Record<string, unknown>;
  errors: number[];
}

export const pluginRoutes: PluginRouteDoc[] = [
  {
    method: 'POST',
    path: '/api/uploads',
    plugin: 'src/public/uploads.ts',
    access: 'signed-in',
    tag: 'Uploads',
    summary:
      'Upload an image (multipart/form-data, field "file"): JPEG, PNG or WebP checked by content, at most 10 MB; ' +
      're-encoded without EXIF into a large and a thumbnail variant',
    status: 201,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', format: 'binary', description: 'JPEG, PNG or WebP, ≤ 10 MB' } },
          },
          encoding: { file: { contentType: 'image/jpeg, image/png, image/webp' } },
        },
      },
    },
    response: {
      type: 'object',
      required: ['id', 'url', 'thumbnailUrl', 'width', 'height', 'contentType'],
      properties: {
        id: { type: 'integer' },
        url: { type: 'string', description: 'The large variant (/uploads/… or the bucket URL)' },
        thumbnailUrl: { type: 'string' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        contentType: { type: 'string' },
      },
    },
    errors: [413],
  },
  {
    method: 'POST',
    path: '/api/imports',
    plugin: 'src/public/imports-upload.ts',
    access: 'signed-in',
    tag: 'Imports',
    summary:
      'Upload an export from another system (multipart/form-data: field "file", a CSV of at most 50 MB; optional ' +
      '"source" or "presetId"): the source is recognised from the header row and a dry run (people new, matched, ' +
      'changed, skipped; households, children; gifts and totals per fund and year; unreadable rows with line and ' +
      'column) is stored as the import’s preview. A ZIP made by Settings → Export everything is a Lampstand export: ' +
      'it goes only into a new church, and its preview counts the rows of each table. Nothing else is written ' +
      'until POST /api/imports/{id}/commit',
    status: 201,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', format: 'binary', description: 'CSV or a Lampstand export ZIP, ≤ 50 MB' },
              source: {
                type: 'string',
                enum: importSourceIdSchema.exclude(['preset']).options,
                description: 'Optional: the file must be this export (recognised from its header row otherwise)',
              },
              presetId: { type: 'integer', description: 'Optional: read a generic CSV through this saved mapping' },
            },
          },
          encoding: { file: { contentType: 'text/csv' } },
        },
      },
    },
    response: {
      type: 'object',
      required: ['id', 'source', 'sourceLabel', 'kind', 'status', 'preview'],
      properties: {
        id: { type: 'integer' },
        source: { type: 'string' },
        sourceLabel: { type: 'string', description: 'Which export was recognised, in words' },
        kind: { type: 'string', enum: ['people', 'gifts', 'church'] },
        status: { type: 'string', enum: ['previewed', 'queued', 'running', 'completed', 'failed'] },
        preview: { type: 'object', additionalProperties: true, description: 'As GET /api/imports/{id}' },
      },
    },
    errors: [404, 409, 413],
  },
  {
    method: 'POST',
    path: '/api/email/events/{provider}',
    plugin: 'src/provider-webhooks.ts',
    access: 'public',
    pathParams: { provider: ['ses', 'postmark'] },
    tag: 'Email events',
    summary:
      "An email provider's bounce and complaint events: Amazon SES through SNS (the SNS message, signed; a " +
      "SubscriptionConfirmation is confirmed) or Postmark's bounce and spam-complaint webhooks (basic auth). A hard " +
      'bounce or complaint suppresses the address at once, the third soft bounce in 30 days too; unsigned or ' +
      'wrongly signed: 403, nothing stored',
    status: 200,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            additionalProperties: true,
            description: 'An SNS message (Type, Message, Signature, SigningCertURL, …) or a Postmark webhook',
            properties: {
              Type: { type: 'string' },
              Message: { type: 'string' },
              Signature: { type: 'string' },
              RecordType: { type: 'string' },
              Email: { type: 'string' },
            },
          },
        },
        'text/plain': { schema: { type: 'string', description: 'SNS posts its JSON message as text/plain' } },
      },
    },
    response: {
      type: 'object',
      required: ['ok', 'outcomes'],
      properties: {
        ok: { type: 'boolean' },
        outcomes: {
          type: 'array',
          items: { type: 'string', enum: ['recorded', 'suppressed', 'unknown-delivery', 'not-email', 'duplicate'] },
        },
      },
    },
    errors: [403, 404],
  },
  {
    method: 'POST',
    path: '/api/check-in/pair',
    plugin: 'src/public/checkin-pairing.ts',
    access: 'public',
    tag: 'Check-in',
    summary:
      "Pair this browser as a check-in station with staff's one-time code: the answer sets the station's cookie " +
      '(lampstand.station, httpOnly), which reaches the check-in routes only; a wrong or expired code is a 400, ' +
      'and too many wrong codes from one address (or from all together) a 429 with Retry-After',
    status: 200,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', required: ['code'], properties: { code: { type: 'string', maxLength: 20 } } },
        },
      },
    },
    response: {
      type: 'object',
      required: ['id', 'name', 'kind', 'paired'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        kind: { type: 'string', enum: ['self', 'manned', 'room'] },
        roomId: { type: ['integer', 'null'] },
        paired: { type: 'boolean' },
      },
    },
    errors: [429],
  },
];
