import { Agent, request } from 'undici';

export interface Page {
  status: number;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A browser as far as a sign-in needs one, over real HTTPS: a cookie jar per host name (cookies ignore
 * ports, as browsers' do), redirects followed (303 and 302 as GET), forms posted, the Origin header of
 * the page a form is on.
 */
export class TestBrowser {
  readonly cookies = new Map<string, Map<string, string>>();
  /** Every Set-Cookie line received, with the URL that sent it. */
  readonly received: { url: string; line: string }[] = [];
  private readonly agent: Agent;

  constructor(cas: string[]) {
    this.agent = new Agent({ connect: { ca: cas } });
  }

  /** The Cookie header this browser sends to `url`. */
  cookieHeader(url: string): string | undefined {
    const jar = this.cookies.get(new URL(url).hostname);
    if (!jar || jar.size === 0) return undefined;
    return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  cookie(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).hostname)?.get(name);
  }

  private keep(url: string, setCookie: string | string[] | undefined): void {
    const host = new URL(url).hostname;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    this.cookies.set(host, jar);
    for (const line of [setCookie ?? []].flat()) {
      this.received.push({ url, line });
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || /expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request and the redirects after it; the last page. */
  async go(method: string, url: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Page> {
    let current = url;
    let currentMethod = method;
    let body = options.body;
    let headers = options.headers ?? {};
    for (let hop = 0; hop < 20; hop++) {
      const cookie = this.cookieHeader(current);
      const response = await request(current, {
        method: currentMethod as 'GET',
        headers: { ...headers, ...(cookie ? { cookie } : {}) },
        body,
        dispatcher: this.agent,
      });
      this.keep(current, response.headers['set-cookie']);
      const text = await response.body.text();
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        current = new URL(location, current).href;
        currentMethod = 'GET';
        body = undefined;
        headers = {};
        continue;
      }
      return { status: response.statusCode, url: current, headers: response.headers, text };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Posts the page's first form with its hidden fields and `fields`, as a browser on that page would. */
  async submit(page: Page, fields: Record<string, string> = {}): Promise<Page> {
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.text);
    if (!form) throw new Error(`no form on ${page.url} (${page.status}): ${page.text.slice(0, 300)}`);
    const values = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi))
      values.set(input[1]!, input[2]!);
    for (const [name, value] of Object.entries(fields)) values.set(name, value);
    const action = new URL(form[1]!.replace(/&amp;/g, '&'), page.url);
    return this.go('POST', action.href, {
      body: values.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(page.url).origin },
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * Signs in through single sign-on at `baseUrl` as `login` on the provider's development pages (login,
 * then consent); the page the browser ends on.
 */
export async function signInWithProvider(browser: TestBrowser, baseUrl: string, login: string): Promise<Page> {
  let page = await browser.go('GET', `${baseUrl}/auth/oidc/login`);
  for (let step = 0; step < 4 && page.url.startsWith(baseUrl) === false; step++) {
    page = await browser.submit(page, /name="login"/.test(page.text) ? { login, password: 'any-password' } : {});
  }
  return page;
}
