// A church's public handle, suggested from its name.

/** A handle suggested from a church's name: 'Grace City Church!' → 'grace-city-church'. */
export function handleFrom(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `${base || 'church'}-home`.replace(/^-/, '');
}
