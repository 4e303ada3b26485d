/** GET /docs: a self-contained page that renders /openapi.json (no CDN: Trawl runs offline too). */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trawl API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{background:#f4f4f4;border-radius:4px}pre{padding:.75rem;overflow:auto;font-size:13px}
.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}</style>
</head><body><h1>Trawl API</h1><p id="intro"></p><div id="ops"></div>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p>
<script>
fetch('/openapi.json').then(r => r.json()).then(doc => {
  document.getElementById('intro').textContent = doc.info.description;
  const ops = document.getElementById('ops');
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) {
    const div = document.createElement('div'); div.className = 'op';
    const h = document.createElement('h3'); h.innerHTML = '<span class="m"></span><code></code>';
    h.querySelector('.m').textContent = method; h.querySelector('code').textContent = path; div.append(h);
    const p = document.createElement('p'); p.textContent = (op.summary || '') + (op.description ? ' — ' + op.description : ''); div.append(p);
    const schema = op.requestBody && op.requestBody.content['application/json'].schema;
    if (schema) { const pre = document.createElement('pre'); pre.textContent = JSON.stringify(schema, null, 2); div.append(pre); }
    const codes = document.createElement('p'); codes.textContent = 'Responses: ' + Object.entries(op.responses).map(([c, r]) => c + ' ' + r.description).join('; '); div.append(codes);
    ops.append(div);
  }
});
</script></body></html>`;
}
