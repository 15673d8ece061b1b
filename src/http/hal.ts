/** HAL link helpers (spec §2.1): every link is absolute, built from the public base URL. */

export interface HalLink {
  href: string;
  templated?: true;
}

export type HalLinks = Record<string, HalLink>;

export function link(baseUrl: string, pathAndQuery: string): HalLink {
  return { href: `${baseUrl}${pathAndQuery}` };
}

/** An RFC 6570 form-style query template: `/path{?a,b,c}`. */
export function templatedLink(baseUrl: string, path: string, variables: readonly string[]): HalLink {
  if (variables.length === 0) return link(baseUrl, path);
  return { href: `${baseUrl}${path}{?${variables.join(',')}}`, templated: true };
}
