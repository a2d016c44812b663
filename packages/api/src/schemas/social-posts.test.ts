import { describe, expect, it } from 'vitest';
import { socialPostFieldsSchema } from './social-posts.js';
import { platformsOverLimit, socialLength } from '../shared/social-posts.js';
import { isImageUrl } from '../shared/urls.js';

describe('social post rules', () => {
  it('counts characters as people see them (an emoji is one)', () => {
    expect(socialLength('Hello 🙏')).toBe(7);
  });

  it('names the chosen platforms a text is too long for', () => {
    const text = 'x'.repeat(281);
    expect(platformsOverLimit(text, ['facebook', 'twitter'])).toEqual(['twitter']);
    expect(platformsOverLimit(text, ['facebook'])).toEqual([]);
    expect(platformsOverLimit('x'.repeat(2201), ['instagram', 'linkedin', 'twitter'])).toEqual([
      'instagram',
      'twitter',
    ]);
  });

  it('takes http(s) image addresses and paths on this server, nothing else', () => {
    expect(isImageUrl('https://example.org/a.jpg')).toBe(true);
    expect(isImageUrl('/uploads/1/a.webp')).toBe(true);
    expect(isImageUrl('//evil.example/a.jpg')).toBe(false);
    expect(isImageUrl('javascript:alert(1)')).toBe(false);
    expect(isImageUrl('data:image/png;base64,AAAA')).toBe(false);
  });

  it('defaults a new post to scheduled, with empty link, image and tags', () => {
    const v = socialPostFieldsSchema.parse({
      content: 'Hi',
      scheduledFor: '2030-01-01T09:00:00+10:00',
      platforms: ['facebook'],
    });
    expect(v).toEqual({
      content: 'Hi',
      scheduledFor: '2030-01-01T09:00:00+10:00',
      platforms: ['facebook'],
      status: 'scheduled',
      imageUrl: null,
      linkUrl: null,
      tags: [],
    });
  });
});
