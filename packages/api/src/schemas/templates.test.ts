import { describe, expect, it } from 'vitest';
import { packageFieldsSchema, packageFormSchema, templateFieldsSchema, templateFormSchema } from './templates.js';

describe('template and package dialogs', () => {
  it("reads a package's template Selects: 'none' is no template, an id as text is a number", () => {
    const parsed = packageFormSchema.parse({
      name: ' Easter ',
      category: 'easter',
      description: '',
      thumbnail: '',
      emailTemplateId: '12',
      smsTemplateId: 'none',
      printTemplateId: 'none',
      landingPageTemplateId: '3',
      isActive: true,
    });
    expect(parsed).toMatchObject({
      name: 'Easter',
      emailTemplateId: 12,
      smsTemplateId: null,
      landingPageTemplateId: 3,
    });
    // What the dialog sends is what the API accepts.
    expect(packageFieldsSchema.safeParse(parsed).success).toBe(true);
  });

  it('gives the shared messages for an empty package or template', () => {
    const pkg = packageFormSchema.safeParse({ name: '', category: '', emailTemplateId: 'none' });
    expect(pkg.error?.issues.map((i) => i.message)).toEqual(['Name is required', 'Category is required']);
    const template = templateFormSchema.safeParse({ name: '', type: '', category: 'general', content: {} });
    expect(template.error?.issues.map((i) => i.message)).toEqual(['Name is required', 'Type is required']);
  });

  it('reads key points typed one per line', () => {
    const parsed = templateFormSchema.parse({
      name: 'Welcome',
      type: 'landing-page',
      category: 'welcome',
      content: { headline: 'Hi', keyPoints: ' Coffee \n\nKids church\n' },
    });
    expect(parsed.content.keyPoints).toEqual(['Coffee', 'Kids church']);
    expect(templateFieldsSchema.safeParse(parsed).success).toBe(true);
  });
});
