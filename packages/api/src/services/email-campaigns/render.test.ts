import { describe, expect, it } from 'vitest';
import { fillMergeTags, renderEmail } from './render.js';

const evil = {
  firstName: 'javascript:alert(document.domain)//',
  lastName: '"><script>x()</script>',
  churchName: 'Grace',
};

describe('merge tags by context', () => {
  it('text: HTML-escaped', () => {
    expect(fillMergeTags('<p>Hi {{lastName}}</p>', evil, { html: true })).toBe(
      '<p>Hi &quot;&gt;&lt;script&gt;x()&lt;/script&gt;</p>',
    );
  });
  it('a plain attribute: escaped, cannot close the quote', () => {
    expect(fillMergeTags('<img alt="{{lastName}}">', evil, { html: true })).toBe(
      '<img alt="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;">',
    );
  });
  it('a URL attribute made only of a tag becomes "#"', () => {
    const out = fillMergeTags('<a href="{{firstName}}">x</a><img src="{{ firstName }}">', evil, { html: true });
    expect(out).toBe('<a href="#">x</a><img src="#">');
  });
  it('a tag inside an http(s) URL is percent-encoded', () => {
    const out = fillMergeTags('<a href="https://example.org/?n={{firstName}}">x</a>', evil, { html: true });
    expect(out).toBe('<a href="https://example.org/?n=javascript%3Aalert(document.domain)%2F%2F">x</a>');
  });
  it('a mailto URL with a tag stays', () => {
    const out = fillMergeTags("<a href='mailto:office@example.org?subject={{churchName}}'>x</a>", evil, { html: true });
    expect(out).toBe('<a href="mailto:office@example.org?subject=Grace">x</a>');
  });
  it('plain text (subject, SMS): as is', () => {
    expect(fillMergeTags('Hi {{firstName}}', evil, { html: false })).toBe(`Hi ${evil.firstName}`);
  });
});

describe('the sent message', () => {
  it('has no javascript: URL whatever the contact is named', () => {
    const { html } = renderEmail({
      subject: 's',
      html: '<a href="{{firstName}}">x</a><img src="{{firstName}}"><a href="java{{lastName}}script:x">y</a>',
      churchName: 'Grace',
      postalAddress: null,
      recipient: evil,
      publicUrl: 'http://localhost',
    });
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<script/i);
  });

  it('keeps a name with markup as text in every place a tag stands (the content sanitized once)', () => {
    const render = (lastName: string) =>
      renderEmail({
        subject: 's',
        html: '<p style="color:{{lastName}}">Hi {{lastName}}</p><a title="{{lastName}}" href="https://x.org/?n={{lastName}}">a</a>',
        churchName: 'Grace',
        postalAddress: null,
        recipient: { firstName: 'A', lastName },
        publicUrl: 'http://localhost',
      }).html;
    const html = render('"><img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<img src=x/i);
    // No element gets the handler: it stays text, and the title cannot close its quote.
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\sonerror=/i);
    expect(html).toContain('title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(html).toContain('Hi &quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('href="https://x.org/?n=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"');
    // The same content for the next person: their own name, nothing of the first one's.
    expect(render('Lee')).toContain('Hi Lee</p>');
    expect(render('Lee')).not.toContain('onerror');
  });

  it("has 'Manage your subscriptions' beside the one-click unsubscribe", () => {
    const token = 'ab'.repeat(32);
    const { html, text, headers } = renderEmail({
      subject: 's',
      html: '<p>Hi</p>',
      churchName: 'Grace',
      postalAddress: null,
      recipient: { firstName: 'Ann', lastName: 'Lee' },
      tracking: { publicUrl: 'https://lampstand.example', secret: 'k', token },
      publicUrl: 'https://lampstand.example',
    });
    expect(html).toContain(
      `<a href="https://lampstand.example/u/${token}/manage" style="color:#6b7280">Manage your subscriptions</a>`,
    );
    expect(html).toContain(`<a href="https://lampstand.example/u/${token}" style="color:#6b7280">Unsubscribe</a>`);
    expect(text).toContain(`Manage your subscriptions: https://lampstand.example/u/${token}/manage`);
    expect(headers['List-Unsubscribe']).toBe(`<https://lampstand.example/u/${token}>`);
  });
});
