/** HAL links (spec §2.1): every href is absolute, built from the public base URL. */

export interface HalLink {
  href: string;
  templated?: true;
}

export type HalLinks = Record<string, HalLink>;
