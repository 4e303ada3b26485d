import { describe, expect, test } from 'bun:test';
import { readCss, resolveVariables } from './css.ts';
import { decideFonts, primaryFamily } from './fonts.ts';
import { decidePalette, hexColor, isChromatic, variableRole } from './palette.ts';

describe('custom property roles', () => {
  test('the role word with filler and one vendor prefix; components, states and shades are not roles', () => {
    const roles = [
      '--primary',
      '--color-brand-primary',
      '--bs-primary',
      '--brand-color',
      '--bs-body-color',
      '--bs-body-bg',
      '--bg',
      '--text-color',
      '--bs-link-color',
      '--acme-accent',
      '--theme-secondary',
    ].map(variableRole);
    expect(roles).toEqual([
      'primary',
      'primary',
      'primary',
      'primary',
      'text',
      'background',
      'background',
      'text',
      'link',
      'accent',
      'secondary',
    ]);
    for (const name of [
      '--primary-hover',
      '--form-background',
      '--header-text-color',
      '--primary-500',
      '--primary-foreground',
      '--red-ui-primary-font',
      '--link-underline',
    ]) {
      expect([name, variableRole(name)]).toEqual([name, null]);
    }
  });
});

describe('colours', () => {
  test('any CSS colour as #rrggbb; bare HSL channels too; mostly transparent is no colour', () => {
    expect(
      [
        '#0A66C2',
        'rgb(16 185 129)',
        'hsl(160 84% 39%)',
        '160 84% 39%',
        'oklch(62.8% 0.258 29.2)',
        'rgba(0,0,0,0.1)',
        'transparent',
        'inherit',
      ].map(hexColor),
    ).toEqual(['#0a66c2', '#10b981', '#10b77f', '#10b77f', '#ff0000', null, null, null]);
    expect([isChromatic('#0a66c2'), isChromatic('#f8fafc'), isChromatic('#111111'), isChromatic('#808080')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  test('variables resolve through var() with fallbacks; a cycle resolves to nothing', () => {
    const vars = new Map([
      ['--a', 'var(--b)'],
      ['--b', '#123456'],
      ['--x', 'var(--y)'],
      ['--y', 'var(--x)'],
    ]);
    expect(resolveVariables('var(--a)', vars)).toBe('#123456');
    expect(resolveVariables('var(--missing, #abcdef)', vars)).toBe('#abcdef');
    expect(resolveVariables('var(--x)', vars)).toBeNull();
  });

  test('a dark-scheme block does not replace the light palette; the theme colour is primary when nothing names one', () => {
    const css = readCss(':root{--bg:#fff}@media (prefers-color-scheme: dark){:root{--bg:#000}} .dark{--text:#eee} body{color:#222}');
    const palette = decidePalette(
      { css, themes: [{ color: '#111111', media: '(prefers-color-scheme: dark)' }, { color: '#e11d48' }], manifest: null, computed: null },
      null,
    );
    expect(palette.colors).toMatchObject({ background: '#ffffff', text: '#222222', primary: '#e11d48' });
    expect(palette.sources).toMatchObject({ background: 'css-variable', text: 'stylesheet', primary: 'theme-color' });
    expect(palette.colorScheme).toBe('light');
  });

  test('secondary and accent differ visibly from primary', () => {
    const css = readCss('.btn{background:#0a66c2} .btn-alt{background:#0b67c3} .tag{color:#f97316}');
    const { colors } = decidePalette({ css, themes: [], manifest: null, computed: null }, null);
    expect(colors.primary).toBe('#0a66c2');
    expect(colors.secondary).toBe('#f97316');
    expect(colors.accent).toBeNull();
  });

  test('hostile CSS is read without throwing', () => {
    expect(() => readCss('{{{{;;:root{--a:(((((}}} @media {{{ body{color:}'.repeat(1000))).not.toThrow();
  });
});

describe('fonts', () => {
  test('the first named family of a stack; the system font stack is system-ui', () => {
    expect(primaryFamily('"Playfair Display", Georgia, serif')).toBe('Playfair Display');
    expect(primaryFamily('-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif')).toBe('system-ui');
    expect(primaryFamily('monospace')).toBeNull();
  });

  test('roles from variables and rules, the font shorthand included', () => {
    const css = readCss(
      ':root{--font-mono: "Fira Code", monospace} body{font: 400 16px/1.5 "Source Sans 3", sans-serif} h1{font-family: var(--display, Lora), serif}',
    );
    expect(decideFonts(css, null, [])).toEqual([
      { family: 'Lora', role: 'heading', source: 'stylesheet' },
      { family: 'Source Sans 3', role: 'body', source: 'stylesheet' },
      { family: 'Fira Code', role: 'code', source: 'css-variable' },
    ]);
  });
});
