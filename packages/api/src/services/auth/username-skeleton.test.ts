import { describe, expect, it } from 'vitest';
import { normalizeUsernameInput, usernameSkeleton } from './username-skeleton.js';

describe('usernameSkeleton', () => {
  it('maps Cyrillic and Greek look-alikes, case, accents, full-width forms and invisible characters', () => {
    const root = usernameSkeleton('root');
    for (const lookalike of ['rооt', 'RООT', 'rοοt', 'ｒｏｏｔ', 'r0ot', 'ro\u200bot', 'róot', 'Root'])
      expect(usernameSkeleton(lookalike), lookalike).toBe(root);
    expect(usernameSkeleton('раураl')).toBe(usernameSkeleton('paypal'));
  });

  it('keeps different names apart', () => {
    expect(usernameSkeleton('root')).not.toBe(usernameSkeleton('boot'));
    expect(usernameSkeleton('grace')).not.toBe(usernameSkeleton('graces'));
  });

  it('stores usernames NFKC and trimmed, keeping their case', () => {
    expect(normalizeUsernameInput(' ＧｒａｃｅＣｈｕｒｃｈ ')).toBe('GraceChurch');
  });
});
