// fontkit ships no types; the PDF helper only opens a font file with it (render/pdf.ts).
declare module 'fontkit' {
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): unknown;
}
