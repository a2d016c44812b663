/** A valid Show Up project form, with overrides. */
let n = 0;
export function projectPayload(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    title: `Roof repair ${n}`,
    shortDescription: 'Fix the leaking church hall roof before winter.',
    description:
      'The church hall hosts the food bank and youth group every week; its roof leaks badly and needs new sheeting.',
    location: 'Springfield, IL',
    latitude: 39.78,
    longitude: -89.65,
    targetAmount: 5000,
    category: 'construction',
    tags: 'roof, hall',
    organizationName: 'Grace Church',
    contactEmail: 'office@grace.example.org',
    contactPhone: '555-0100',
    website: 'grace.example.org',
    startDate: '2026-11-01',
    endDate: '2027-03-01',
    coverImage: { id: 7, url: '/uploads/7/large.jpg', thumbnailUrl: '/uploads/7/thumb.jpg' },
    images: ['https://images.example.org/a.jpg'],
    ...overrides,
  };
}
