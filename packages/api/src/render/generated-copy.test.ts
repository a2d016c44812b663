import { describe, expect, it } from 'vitest';
import { type Block } from '../schemas/landing-pages.js';
import { newBlock } from '../shared/landing-pages.js';
import { withGeneratedCopy } from './generated-copy.js';

const copy = {
  headline: 'Celebrate Easter with Us',
  subheading: 'A joyful morning.',
  mainContent: 'Join us this Easter.\n\nThere is something for everyone.',
  callToAction: 'Plan your visit',
  keyPoints: ['Egg hunt at 9am', '  ', 'Family service'],
};

function ids() {
  let n = 0;
  return () => `new${++n}`;
}
const types = (blocks: Block[]) => blocks.map((b) => b.type);

describe('withGeneratedCopy', () => {
  it("fills a page with only a hero in the spec's order: headline, button, main content, key highlights", () => {
    const next = withGeneratedCopy([newBlock('hero', 'hero')], copy, ids());
    expect(types(next)).toEqual(['hero', 'cta', 'text', 'highlights']);
    expect(next[0]).toMatchObject({
      id: 'hero',
      headline: 'Celebrate Easter with Us',
      subheading: 'A joyful morning.',
    });
    expect(next[1]).toMatchObject({ text: 'Plan your visit' });
    expect(next[2]).toMatchObject({ html: '<p>Join us this Easter.</p><p>There is something for everyone.</p>' });
    // Blank key points are dropped.
    expect(next[3]).toMatchObject({ items: ['Egg hunt at 9am', 'Family service'] });
  });

  it('adds missing blocks at their place, never after a sign-up form', () => {
    const next = withGeneratedCopy([newBlock('hero', 'hero'), newBlock('signup', 'form')], copy, ids());
    expect(types(next)).toEqual(['hero', 'cta', 'text', 'highlights', 'signup']);
    // No hero: it goes first, not to the bottom.
    const noHero = withGeneratedCopy([newBlock('text', 'main'), newBlock('signup', 'form')], copy, ids());
    expect(types(noHero)).toEqual(['hero', 'cta', 'text', 'highlights', 'signup']);
    expect(noHero[2]!.id).toBe('main');
  });

  it("keeps the page's own order: blocks it has are filled where they stand, none is moved", () => {
    const blocks = [
      newBlock('text', 'main'),
      newBlock('image', 'pic'),
      newBlock('highlights', 'kp'),
      newBlock('hero', 'top'),
      newBlock('cta', 'button'),
      newBlock('signup', 'form'),
    ];
    const next = withGeneratedCopy(blocks, copy, ids());
    expect(next.map((b) => b.id)).toEqual(['main', 'pic', 'kp', 'top', 'button', 'form']);
    expect(next[4]).toMatchObject({ id: 'button', text: 'Plan your visit' });
    // A page where the button comes last keeps it last.
    const buttonLast = withGeneratedCopy(
      [newBlock('hero', 'h'), newBlock('text', 't'), newBlock('cta', 'c')],
      copy,
      ids(),
    );
    expect(buttonLast.map((b) => b.id)).toEqual(['h', 't', 'new1', 'c']);
    expect(types(buttonLast)).toEqual(['hero', 'text', 'highlights', 'cta']);
  });
});
