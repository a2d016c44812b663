import sanitizeHtml from 'sanitize-html';
import type { LandingPageContent } from '../../schemas/landing-pages.js';
import { normalizeContent } from '../../shared/landing-pages.js';
import { escapeHtml } from '../../render/html.js';

/** Plain text (an AI answer, an old client) becomes paragraphs; HTML keeps only what the editor makes. */
export function sanitizeRichText(input: string): string {
  if (!input.trim()) return '';
  const html = /<[a-z][\s\S]*>/i.test(input)
    ? input
    : input
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
        .join('');
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h2', 'h3', 'h4', 'blockquote', 'ul', 'ol', 'li', 'a'],
    allowedAttributes: { a: ['href', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: {
          href: attribs.href ?? '#',
          rel: 'noopener noreferrer',
          ...(attribs.target ? { target: '_blank' } : {}),
        },
      }),
    },
  });
}

/** The content as stored: blocks are the truth, the spec's fields follow them, rich text is clean. */
export function cleanContent(content: LandingPageContent): LandingPageContent {
  const normalized = normalizeContent(content);
  const blocks = normalized.blocks.map((b) => (b.type === 'text' ? { ...b, html: sanitizeRichText(b.html) } : b));
  return normalizeContent({ ...normalized, blocks });
}
