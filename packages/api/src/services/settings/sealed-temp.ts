// TEMPORARY, until `sealSecret`/`openSecret` land on main in @lampstand/db (issue 43 §5): the same
// names and the same 'enc:v1:' prefix so the column's check holds; NOT encryption. Replaced by the
// import from '@lampstand/db' when main is merged.
export const sealSecret = (plain: string): string => `enc:v1:${Buffer.from(plain, 'utf8').toString('base64url')}`;
export const openSecret = (stored: string): string =>
  Buffer.from(stored.slice('enc:v1:'.length), 'base64url').toString('utf8');
