// One tile of the church's map tile server (MAP_TILE_URL) around a point, for pages with no
// script: the group finder shades a group's area on it, an event's page pins its place.

/** The frame of a tile (`<div class="map"><img>…<small>attribution</small></div>`). */
export const MAP_CSS = `.map{position:relative;width:256px;height:256px;max-width:100%;overflow:hidden;border-radius:12px;margin:8px 0;background:#e9ecef}.map img{display:block;width:256px;height:256px}
.map small{position:absolute;right:0;bottom:0;background:rgba(255,255,255,.85);font-size:.7rem;padding:0 4px}`;

/** The tile holding the point and where the point falls in it (pixels from its top left). */
export function tileOf(lat: number, lng: number, zoom: number) {
  const n = 2 ** zoom;
  const x = ((lng + 180) / 360) * n;
  const r = (lat * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  return {
    z: zoom,
    x: Math.floor(x),
    y: Math.floor(y),
    left: Math.round((x % 1) * 256),
    top: Math.round((y % 1) * 256),
  };
}

/** The address of a tile from the template: {z}/{x}/{y}, {s} for a subdomain, {r} for retina. */
export function tileAddress(template: string, t: { z: number; x: number; y: number }): string {
  return template
    .replace('{s}', 'a')
    .replace('{z}', String(t.z))
    .replace('{x}', String(t.x))
    .replace('{y}', String(t.y))
    .replace('{r}', '');
}

const ENTITIES: Record<string, string> = {
  '&copy;': '©',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&nbsp;': ' ',
};

/**
 * The tiles' attribution as plain text, to be escaped where it is shown: MAP_TILE_ATTRIBUTION is
 * Leaflet's HTML ('&copy; <a href=…>OpenStreetMap</a> contributors'), which a page without script
 * shows as words ('© OpenStreetMap contributors').
 */
export const attributionText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;/g, (m) => ENTITIES[m] ?? m)
    .trim();
