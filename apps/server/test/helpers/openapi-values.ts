/** A JSON Schema node of /api/openapi.json, as far as the generated tests read it. */
export interface Schema {
  type?: string | string[];
  format?: string;
  minLength?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/** A plausible valid value for the schema, so one hostile leaf reaches the code behind validation. */
export function baseline(schema: Schema | undefined): unknown {
  if (!schema) return 'Fuzz';
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return baseline(variants.find((v) => v.type !== 'null') ?? variants[0]);
  if (schema.allOf?.length) return baseline(Object.assign({}, ...schema.allOf) as Schema);
  if (schema.enum) return schema.enum.find((v) => v !== '') ?? schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, baseline(v)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      if (schema.format === 'email') return 'fuzz@example.org';
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      return 'Fuzz'.padEnd(schema.minLength ?? 1, 'z');
  }
}
