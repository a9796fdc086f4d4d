/**
 * The style nonce of this page load. The server writes a fresh one into `<meta property="csp-nonce">` and
 * into the page's Content-Security-Policy (which allows no other inline style); every `<style>` element the
 * app adds at run time must carry it. The browser hides the attribute once the page is parsed, but keeps the
 * `nonce` property. Undefined where no server wrote one (the Vite dev server, jsdom tests).
 */
export function readStyleNonce(): string | undefined {
  const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
  return nonce || undefined;
}
