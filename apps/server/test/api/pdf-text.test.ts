import { describe, expect, it } from 'vitest';
import { pdfFontsForTests, renderPdf } from '@lampstand/api/render/pdf';
import { pdfText } from '../helpers/giving.js';

// The PDFs' text reads back whole (copy and paste, screen readers, the tests that read receipts)
// whatever another document in the same process asked of the fonts first.
describe('PDF text', () => {
  it('keeps every character when a glyph was first reached by its id', async () => {
    // What an OpenType substitution does: ask for glyphs by their ids alone (here every glyph).
    for (const font of pdfFontsForTests()) for (let id = 0; id < font.numGlyphs; id++) font.getGlyph(id);
    const pdf = await renderPdf({ title: 'Receipt', author: 'Grace Church' }, (doc) => {
      doc.font('Bold').text('Total $25.00');
      doc.font('Regular').text('Given 1,234.56 on Nov 29, 2026 — thank you!');
    });
    const text = await pdfText(pdf);
    expect(text).toContain('Total $25.00');
    expect(text).toContain('Given 1,234.56 on Nov 29, 2026 — thank you!');
  });
});
