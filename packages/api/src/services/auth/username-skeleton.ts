/**
 * Usernames that look alike: `rооt` with Cyrillic о beside `root`. A small version of
 * Unicode's confusables skeleton (UTS #39): NFKC, lower case, accents and invisible characters
 * dropped, then the common Cyrillic and Greek look-alikes (and 0/1) mapped to Latin letters.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic (lower case; upper case arrives lowered)
  а: 'a',
  в: 'b',
  ь: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  у: 'y',
  ү: 'y',
  ԝ: 'w',
  х: 'x',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  // Latin and digits
  ı: 'i',
  ɡ: 'g',
  '0': 'o',
  '1': 'l',
};

/** Zero-width and other invisible characters that make two names differ without looking different. */
const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g; // (marks such as variation selectors go with \p{Mn})

/** The username as stored and compared for equality: NFKC, trimmed (case is kept for display). */
export function normalizeUsernameInput(username: string): string {
  return username.normalize('NFKC').trim();
}

/** Two usernames with the same skeleton look alike. */
export function usernameSkeleton(username: string): string {
  const folded = username
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replace(INVISIBLE, '');
  return [...folded].map((c) => LOOK_ALIKES[c] ?? c).join('');
}
