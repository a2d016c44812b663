import { describe, expect, it } from 'vitest';
import { landingPageContentSchema, slugSchema } from './landing-pages.js';
import { normalizeContent, slugify } from '../shared/landing-pages.js';
import { sanitizeRichText } from '../services/landing-pages/sanitize.js';
import { renderLandingPage } from '../render/landing-page-html.js';

describe('slugs', () => {
  it('suggests a slug from the name and checks the spec rule', () => {
    expect(slugify('Easter Sunday 2027!')).toBe('easter-sunday-2027');
    expect(slugify('  Café — Crèche & Youth  ')).toBe('cafe-creche-youth');
    expect(slugSchema.safeParse('easter-2027').success).toBe(true);
    expect(slugSchema.safeParse('Easter').error?.issues[0]?.message).toBe(
      'Slug can only contain lowercase letters, numbers, and hyphens',
    );
    expect(slugSchema.safeParse('').error?.issues[0]?.message).toBe('Slug is required');
  });
});

describe('normalizeContent', () => {
  it('builds the default blocks from the spec fields, and reads the spec fields back from blocks', () => {
    const fromSpec = normalizeContent(
      landingPageContentSchema.parse({ headline: 'H', subheading: 'S', callToAction: 'Go', keyPoints: ['a'] }),
    );
    expect(fromSpec.blocks.map((b) => b.type)).toEqual(['hero', 'cta', 'highlights']);
    const fromBlocks = normalizeContent(
      landingPageContentSchema.parse({
        headline: 'stale',
        blocks: [
          { id: 'k', type: 'highlights', items: ['x', 'y'] },
          { id: 'h', type: 'hero', headline: 'New' },
        ],
      }),
    );
    expect(fromBlocks).toMatchObject({ headline: 'New', subheading: '', callToAction: '', keyPoints: ['x', 'y'] });
  });
  it('refuses unknown block types and unsafe links', () => {
    expect(landingPageContentSchema.safeParse({ blocks: [{ id: 'a', type: 'script' }] }).success).toBe(false);
    expect(
      landingPageContentSchema.safeParse({
        blocks: [{ id: 'a', type: 'image', image: { url: 'javascript:alert(1)' } }],
      }).success,
    ).toBe(false);
    expect(
      landingPageContentSchema.safeParse({
        blocks: [{ id: 'a', type: 'image', image: { url: '/uploads/../secret' } }],
      }).success,
    ).toBe(false);
  });
});

describe('sanitizeRichText', () => {
  it('turns plain text into paragraphs and keeps only what the editor makes', () => {
    expect(sanitizeRichText('One\n\nTwo & three')).toBe('<p>One</p><p>Two &amp; three</p>');
    expect(sanitizeRichText('<p onclick="x()">Hi <script>bad()</script><a href="javascript:x">l</a></p>')).toBe(
      '<p>Hi <a rel="noopener noreferrer">l</a></p>',
    );
  });
});

describe('renderLandingPage', () => {
  it('escapes every text and uses one h1', () => {
    const html = renderLandingPage({
      publicUrl: 'https://church.example',
      churchName: 'St <Mark>',
      name: 'n',
      slug: 's',
      content: normalizeContent(landingPageContentSchema.parse({ headline: '"><script>x</script>' })),
      year: 2027,
    });
    expect(html).not.toContain('<script>x');
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain('© 2027 St &lt;Mark&gt;');
  });
});
