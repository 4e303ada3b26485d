/** Small DOM helpers of the dashboard's script: every value goes in as text, never as markup. */

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const input = (id: string) => $<HTMLInputElement>(id);

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | null, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A table cell labelled for the card layout at phone width. */
export function cell(label: string, ...children: Array<Node | string>): HTMLTableCellElement {
  const td = el('td');
  if (label) td.dataset.label = label;
  td.append(...children);
  return td;
}

export function button(text: string, onClick: () => unknown, cls?: string): HTMLButtonElement {
  const b = el('button', text, cls);
  b.type = 'button';
  b.onclick = () => onClick();
  return b;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** The header's status line; errors show in red until the next message. */
export function say(message: string, isError = false): void {
  const m = $('message');
  m.textContent = message;
  m.className = isError ? 'err' : 'muted';
}

/** Lines of a textarea, trimmed, empty ones left out. */
export const linesOf = (id: string) =>
  $<HTMLTextAreaElement>(id)
    .value.split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Asks before something that cannot be undone; resolves true on the confirming button. */
export function confirmDialog(text: string, action = 'Delete'): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('confirm');
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = action;
  dialog.showModal();
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      dialog.close();
      resolve(ok);
    };
    $('confirm-ok').onclick = () => done(true);
    $('confirm-cancel').onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
  });
}

/** Starts a download of text made here (an export). */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
