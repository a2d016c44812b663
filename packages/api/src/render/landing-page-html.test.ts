import { describe, expect, it } from 'vitest';
import { landingPageContentSchema, type Block } from '../schemas/landing-pages.js';
import { renderLandingPage } from './landing-page-html.js';

const page = (blocks: Block[]) =>
  renderLandingPage({
    publicUrl: 'https://lampstand.example',
    churchName: 'Grace Church',
    name: 'Easter',
    slug: 'easter',
    content: landingPageContentSchema.parse({ blocks }),
  });

describe('the public page: key highlights', () => {
  it('lists only the key points that are written: an empty one is not a bare number', () => {
    const html = page([
      { id: 'kp', type: 'highlights', title: 'Key Highlights', items: ['Egg hunt', '', '  ', 'Coffee'] },
    ]);
    expect(html).toContain('<ol class="kp"><li>Egg hunt</li><li>Coffee</li></ol>');
    expect(html).not.toMatch(/<li>\s*<\/li>/);
  });

  it('leaves the section out when no key point is written', () => {
    const html = page([{ id: 'kp', type: 'highlights', title: 'Key Highlights', items: ['', ' '] }]);
    expect(html).not.toContain('Key Highlights');
    expect(html).not.toContain('<ol');
  });
});
