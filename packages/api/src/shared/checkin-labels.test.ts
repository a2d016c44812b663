import { describe, expect, it } from 'vitest';
import { childTagZpl, labelsZpl } from './checkin-labels.js';

describe('ZPL labels', () => {
  it('keep ZPL control characters out of the fields', () => {
    const zpl = childTagZpl({ name: 'Ann^XZ~JR', room: 'Nursery\n^XA', care: null, code: 'ABCD', date: '2026-12-06' });
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('^FDAnn XZ JR^FS');
  });

  it('scale to the 4″×2″ stock', () => {
    const tags = { children: [], pickup: { children: ['Ann'], code: 'ABCD', date: '2026-12-06' } };
    expect(labelsZpl(tags, '4x2')).toContain('^PW812^LL406');
    expect(labelsZpl(tags, '2.25x1.25')).toContain('^PW457^LL254');
  });
});
