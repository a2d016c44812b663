import { describe, expect, it } from 'vitest';
import { mapSearchUrl, renderChurchHome, renderChurchNotFound, type ChurchHomeView } from './church-home-html.js';

const home: ChurchHomeView = {
  handle: 'grace-city',
  churchName: 'Grace City Church',
  description: '',
  logo: null,
  address: '1 Church Street\r\n  Springfield NSW 2000\n',
  serviceTimes: '',
  website: null,
  pages: [],
  projects: [],
  lists: [],
  publicUrl: 'https://lampstand.example',
  year: 2026,
};

describe('the church home', () => {
  it('offers Give only when the giving page takes gifts', () => {
    expect(renderChurchHome({ ...home, canGive: true })).toContain('href="/c/grace-city/give"');
    expect(renderChurchHome({ ...home, canGive: false })).not.toContain('/give');
  });

  it('links the address to a map search, its lines joined', () => {
    expect(mapSearchUrl(home.address)).toBe(
      'https://www.openstreetmap.org/search?query=1%20Church%20Street%2C%20Springfield%20NSW%202000',
    );
    expect(renderChurchHome({ ...home, address: '' })).not.toContain('openstreetmap');
  });

  it('says no church is at an unknown address', () => {
    const html = renderChurchNotFound();
    expect(html).toContain('<title>Church not found</title>');
    expect(html).toContain('We couldn&#39;t find a church at this address.');
  });
});
