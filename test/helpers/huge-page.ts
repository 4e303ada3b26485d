/**
 * A generated page of about `mb` megabytes: paragraphs in nested sections with links and inline
 * markup, the shape that costs a renderer most per byte.
 */
export function hugePage(mb: number): string {
  const block =
    '<section><div><p>Lorem <b>ipsum</b> dolor <a href="/x">sit</a> amet, <i>consectetur</i> adipiscing elit.</p></div></section>\n';
  return `<!doctype html><html><head><title>Huge</title></head><body>${block.repeat(Math.ceil((mb * 2 ** 20) / block.length))}</body></html>`;
}
