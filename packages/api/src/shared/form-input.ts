// What a form's field holds, before a schema reads it: blank text is none, numeric text a number.

export const emptyToNull = (v: unknown) =>
  v === '' || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v;

export const numberOrNull = (v: unknown) => {
  const e = emptyToNull(v);
  if (typeof e === 'string' && e.trim() !== '' && Number.isFinite(Number(e))) return Number(e);
  return e;
};
