import type OpenAI from 'openai';

export interface AiCompletion {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

/** A chat model answering JSON of a given schema (structured output). */
export interface AiProvider {
  readonly model: string;
  completeJson(req: {
    system: string;
    user: string;
    schemaName: string;
    schema: Record<string, unknown>;
  }): Promise<AiCompletion>;
}

export interface OpenAiOptions {
  apiKey?: string;
  /** Any OpenAI-compatible server (a self-hosted model); default OpenAI's. */
  baseURL?: string;
  model: string;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** The SDK's own retries of connection errors, 408/409/429 and 5xx (default 1). */
  maxRetries?: number;
}

/** The real adapter: the `openai` SDK's chat completions with a JSON schema response format. */
export function createOpenAiProvider(opts: OpenAiOptions): AiProvider {
  // The SDK (2.4 MB of the server bundle) is loaded on the first generation, not at every start.
  let client: Promise<OpenAI> | undefined;
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: OpenAI }) =>
        new OpenAI({
          // A self-hosted server may need no key; the SDK insists on one.
          apiKey: opts.apiKey || 'not-needed',
          baseURL: opts.baseURL,
          timeout: opts.timeoutMs ?? 30_000,
          maxRetries: opts.maxRetries ?? 1,
        }),
    ));
  return {
    model: opts.model,
    async completeJson(req) {
      const res = await (
        await sdk()
      ).chat.completions.create({
        model: opts.model,
        messages: [
          { role: 'system', content: req.system },
          { role: 'user', content: req.user },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: req.schemaName, schema: req.schema, strict: true },
        },
        temperature: 0.7,
      });
      return {
        text: res.choices[0]?.message?.content ?? '',
        promptTokens: res.usage?.prompt_tokens ?? 0,
        completionTokens: res.usage?.completion_tokens ?? 0,
      };
    },
  };
}

/** OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set; else none (the generator is shown disabled). */
export function aiProviderFor(opts: Partial<OpenAiOptions> & { model?: string }): AiProvider | null {
  if (!opts.apiKey && !opts.baseURL) return null;
  return createOpenAiProvider({ ...opts, model: opts.model || 'gpt-4o-mini' });
}
