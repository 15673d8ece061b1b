import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * A readme as safe HTML: Markdown rendered, then sanitised (no script, no event handler, no
 * `javascript:` link). Inline styles and images are dropped too: the console's Content-Security-Policy
 * would refuse them anyway (styles and images only from this origin).
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img'], FORBID_ATTR: ['style'] });
}
