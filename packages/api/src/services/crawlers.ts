/**
 * Crawlers, link unfurlers, monitors and browser prefetches: they fetch a page or a short link,
 * nobody looked at it. One definition for landing-page visits and QR / short-link scans.
 */
const AGENTS =
  /bot|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|meta-externalagent|facebot|embedly|whatsapp|telegram|skype|discord|slack|linkedin|pinterest|vkshare|quora link|outbrain|nuzzel|applebot|yandex|baidu|duckduck|semrush|ahrefs|ia_archiver|w3c_validator|headless|lighthouse|pingdom|uptime|monitor|curl|wget|python-requests|go-http-client|okhttp|axios|node-fetch|undici/i;

/**
 * True for an automated request. `missingAgentIsCrawler`: a request without a user agent is not a
 * person's browser (landing-page visits), or is counted anyway (a scanner app may send none).
 */
export function isCrawler(
  userAgent: string | undefined,
  headers: Record<string, string | string[] | undefined> = {},
  opts: { missingAgentIsCrawler?: boolean } = {},
): boolean {
  const purpose = String(headers['purpose'] ?? headers['sec-purpose'] ?? headers['x-purpose'] ?? '');
  if (/prefetch|preview/i.test(purpose)) return true;
  const ua = (userAgent ?? '').trim();
  if (!ua) return opts.missingAgentIsCrawler ?? true;
  return AGENTS.test(ua);
}
