import { escapeHtml } from './html.js';

// The Show Up donation receipt page (/show-up/receipts/{token}), rendered on the server.

/** Wires the Print button (the CSP allows no inline handlers; this script is allowed by its hash). */
export const RECEIPT_SCRIPT = `document.getElementById('print').addEventListener('click',function(){window.print()});`;

/** A receipt-styled page; `printable` adds the Print button and its script. */
export function renderReceiptPage(title: string, body: string, opts: { printable?: boolean } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f8f9fa;color:#1f2937;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:32px;max-width:520px;margin:16px}
h1{font-size:22px;margin:0 0 12px}p{line-height:1.5;margin:6px 0}.addr{white-space:pre-line;color:#4b5563}
a{color:#364fc7}button{margin-top:16px;background:#364fc7;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:16px;cursor:pointer}
@media print{button{display:none}body{background:#fff}main{box-shadow:none}}</style></head><body><main>${body}${
    opts.printable ? '<button type="button" id="print">Print</button>' : ''
  }</main>${opts.printable ? `<script>${RECEIPT_SCRIPT}</script>` : ''}</body></html>`;
}
