import type { PaymentsProvider } from '../../providers/payments.js';
import type { CardFee } from '../../schemas/giving.js';

/** What Show Up needs from configuration: payments and the map's tiles. */
export interface ShowUpServices {
  payments: PaymentsProvider;
  /** Leaflet tile URL template (MAP_TILE_URL), e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
  mapTileUrl: string;
  mapAttribution: string;
  /** The card fee a donor may cover on the church giving page. */
  cardFee: CardFee;
}

export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_MAP_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
