import { essence } from '../lib/media-types.js';

/** Where a browser opening the server's root is sent: the web console signs people in itself. */
export const CONSOLE_PATH = '/console/';

/**
 * Whether a request is a browser opening `/` (the URL the start line prints): GET or HEAD of the
 * root, with an Accept header that names `text/html` at a quality at least as high as any
 * `application/…` type it names (JSON, HAL, this API's vendor types, `application/*`). Browsers'
 * navigations all list `text/html` first. The full wildcard range alone (what curl and most HTTP
 * libraries send) is not a browser, nor is no Accept at all: API clients keep the API's answer.
 * XHTML and XML are what browsers list beside HTML, so they do not count as API types.
 */
export function isBrowserAtRoot(method: string, url: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (url !== '/' && !url.startsWith('/?')) return false;
  return accept !== undefined && prefersHtml(accept);
}

const NOT_API_TYPES = new Set(['application/xhtml+xml', 'application/xml']);

/** `text/html` named with q > 0 and no `application/…` range (other than XHTML and XML) named higher. */
export function prefersHtml(accept: string): boolean {
  let html = 0;
  let api = 0;
  for (const part of accept.split(',')) {
    const type = essence(part);
    if (type !== 'text/html' && (!type.startsWith('application/') || NOT_API_TYPES.has(type))) continue;
    const q = /;\s*q=([0-9.]+)/i.exec(part);
    const quality = q ? Number(q[1]) : 1;
    if (!(quality > 0)) continue;
    if (type === 'text/html') html = Math.max(html, quality);
    else api = Math.max(api, quality);
  }
  return html > 0 && html >= api;
}
