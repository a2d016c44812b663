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

describe('the public page: a button to the giving page', () => {
  const give = (fundId: number | null): Block => ({
    id: 'g',
    type: 'cta',
    text: 'Give',
    link: { kind: 'give', fundId },
  });
  const render = (blocks: Block[], givePath: string | null) =>
    renderLandingPage({
      publicUrl: 'https://lampstand.example',
      churchName: 'Grace Church',
      name: 'Easter',
      slug: 'easter',
      content: landingPageContentSchema.parse({ blocks }),
      givePath,
    });

  it("goes to the church's giving page, with the chosen fund", () => {
    expect(render([give(7)], '/c/grace/give')).toContain('<a class="btn" href="/c/grace/give?fund=7">Give</a>');
    expect(render([give(null)], '/c/grace/give')).toContain('<a class="btn" href="/c/grace/give">Give</a>');
  });

  it('is not a link while the church has no public handle', () => {
    const html = render([give(7)], null);
    expect(html).toContain('<span class="btn">Give</span>');
    expect(html).not.toContain('/give');
  });
});

describe('the public page: a Register block', () => {
  const block: Block = { id: 'r', type: 'register', eventId: 4, buttonText: 'Save my seat' };
  const render = (events?: Map<number, { title: string; path: string; when: string; place: string | null }>) =>
    renderLandingPage({
      publicUrl: 'https://lampstand.example',
      churchName: 'Grace Church',
      name: 'Easter',
      slug: 'easter',
      content: landingPageContentSchema.parse({ blocks: [block] }),
      events,
    });

  it("shows the event's date and place with a button to its page", () => {
    const html = render(
      new Map([
        [
          4,
          {
            title: 'Easter breakfast',
            path: '/c/grace/events/easter-breakfast',
            when: 'Sunday, April 4',
            place: 'Hall',
          },
        ],
      ]),
    );
    expect(html).toContain('<h2>Easter breakfast</h2><p>Sunday, April 4</p><p>Hall</p>');
    expect(html).toContain('<a class="btn" href="/c/grace/events/easter-breakfast">Save my seat</a>');
  });

  it('is left out for an event the page may not show, and is a placeholder in the preview', () => {
    expect(render(new Map())).not.toContain('Save my seat');
    expect(render()).toContain('Event #4');
  });
});
