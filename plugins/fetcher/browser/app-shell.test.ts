// The app-shell heuristic behind automatic rendering: shells of common frameworks qualify, static
// pages — however short — do not.
import { expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { detectAppShell } from './app-shell.ts';

const shell = (html: string) => detectAppShell(parseHtmlDocument(html), 25).shell;

test.each([
  [
    'React (create-react-app)',
    '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body>',
  ],
  ['Next.js', '<body><div id="__next"></div><script src="/_next/static/chunks/main.js" defer></script></body>'],
  ['Vue with a loading line', '<body><div id="app"><p>Loading…</p></div><script type="module" src="/assets/index.js"></script></body>'],
  ['Angular', '<body><app-root></app-root><script src="main.js" type="module"></script></body>'],
  [
    'a custom shell with a JavaScript notice',
    '<body><div class="shell"></div><noscript>This site requires JavaScript.</noscript><script src="/bundle.js"></script></body>',
  ],
])('%s is an app shell', (_label, html) => {
  expect(shell(html)).toBe(true);
});

test.each([
  ['a short static page', '<body><h1>Hello</h1><p>Hello world</p></body>'],
  ['an empty mount point without any script', '<body><div id="root"></div></body>'],
  ['a script but no mount point or notice', '<body><p>Short note.</p><script>console.log(1)</script></body>'],
  [
    'a server-rendered app with real text',
    `<body><div id="root"><article>${'Plenty of server-rendered words here. '.repeat(10)}</article></div><script src="/app.js"></script></body>`,
  ],
])('%s is not', (_label, html) => {
  expect(shell(html)).toBe(false);
});

test('reports the words it counted', () => {
  expect(
    detectAppShell(parseHtmlDocument('<body><div id="app"><p>Loading the app</p></div><script src="/a.js"></script></body>'), 25),
  ).toEqual({ shell: true, words: 3 });
});
