import { schemaResolver, type UseFormReturnType } from '@mantine/form';
import dayjs from 'dayjs';
import type { RouterOutputs } from '@lampstand/api';
import { createQrCodeSchema, QR_MARGIN, QR_SIZE, type QrErrorCorrectionLevel } from '@lampstand/api/schemas/qr-codes';
import { type UploadedImage } from '../../ui/image-upload';

export type QrCode = RouterOutputs['qrCodes']['list'][number];

export interface ScheduleRow {
  url: string;
  startsAt: string | null;
  endsAt: string | null;
}

export interface Values {
  name: string;
  url: string;
  isShortUrl: boolean;
  foregroundColor: string;
  backgroundColor: string;
  cornerSquareColor: string;
  cornerDotColor: string;
  size: number;
  errorCorrection: QrErrorCorrectionLevel;
  margin: number;
  logoUrl: string;
  logoUpload: UploadedImage | null;
  lightOnDarkConfirmed: boolean;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  schedule: ScheduleRow[];
}

export const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export const toIso = (v: string | null) => (v ? dayjs(v).toISOString() : null);

export function toPayload({ logoUpload, ...v }: Values) {
  return {
    ...v,
    logoUploadId: logoUpload?.id ?? null,
    schedule: v.schedule.map((s) => ({ url: s.url, startsAt: toIso(s.startsAt), endsAt: toIso(s.endsAt) })),
  };
}

export function initialValues(code?: QrCode): Values {
  return {
    name: code?.name ?? '',
    url: code?.url ?? '',
    isShortUrl: code?.isShortUrl ?? false,
    foregroundColor: code?.foregroundColor ?? '#000000',
    backgroundColor: code?.backgroundColor ?? '#FFFFFF',
    cornerSquareColor: code?.cornerSquareColor ?? '',
    cornerDotColor: code?.cornerDotColor ?? '',
    size: code?.size ?? QR_SIZE.default,
    errorCorrection: code?.errorCorrection ?? 'M',
    margin: code?.margin ?? QR_MARGIN.default,
    logoUrl: code?.logoUrl ?? '',
    logoUpload: code?.logoUpload ?? null,
    lightOnDarkConfirmed: code?.lightOnDarkConfirmed ?? false,
    utmSource: code?.utmSource ?? '',
    utmMedium: code?.utmMedium ?? '',
    utmCampaign: code?.utmCampaign ?? '',
    schedule: (code?.schedule ?? []).map((s) => ({
      url: s.url,
      startsAt: s.startsAt ? dayjs(s.startsAt).format(PICKER_FORMAT) : null,
      endsAt: s.endsAt ? dayjs(s.endsAt).format(PICKER_FORMAT) : null,
    })),
  };
}

export const validatePayload = schemaResolver(createQrCodeSchema, { sync: true });

export type QrForm = UseFormReturnType<Values>;
