// Texting keywords: how an incoming text's words are read (the keyword form and the inbound texts share it).

/** An incoming text's words as keywords read them: upper case, punctuation dropped, single spaces. */
export function keywordWords(body: string): string[] {
  return body
    .toUpperCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}
