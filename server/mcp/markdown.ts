/**
 * How each MCP tool's answer reads as markdown for the model (server/mcp/tools.ts names which):
 * the endpoint's JSON goes to structured content untouched, this is the text beside it. Short on
 * purpose: what an agent acts on first, with the JSON for everything else.
 */
export type Answer = Record<string, any>;

export const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
export const warnings = (answer: Answer) =>
  answer.warnings?.length ? `\n\nWarnings:\n${answer.warnings.map((w: string) => `- ${w}`).join('\n')}` : '';
export const titled = (page: Answer) =>
  `# ${page.metadata?.title || page.url || 'Untitled page'}\n\nSource: ${page.url ?? page.metadata?.final_url ?? ''}`;
/** A page's best text: markdown, else plain text, else the answer as JSON. */
export const pageText = (page: Answer) => page.markdown ?? page.text ?? page.llm ?? json(page);
/** `- label: value` lines for the values that are there. */
const facts = (pairs: Array<[string, unknown]>) =>
  pairs
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([label, value]) => `- ${label}: ${value}`)
    .join('\n');
const list = (values: readonly unknown[] | undefined) => (values?.length ? values.join(', ') : undefined);
const byKey = (record: Record<string, unknown> | undefined) => list(Object.entries(record ?? {}).map(([key, value]) => `${key} ${value}`));

/** Where a paged answer continues: the `offset` of its `next` link, when it has one. */
export const moreAt = (answer: Answer) =>
  answer.next ? `\nMore results: offset ${new URL(answer.next, 'http://x').searchParams.get('offset')}` : '';

export function runPages(answer: Answer): string {
  const head =
    `${answer.id ? `Run ${answer.id}: ` : ''}${answer.status}, ${answer.completed ?? 0} completed, ${answer.failed ?? 0} failed of ${answer.total ?? 0}` +
    `${answer.error ? ` (error: ${answer.error})` : ''}${moreAt(answer)}`;
  const pages = (answer.data ?? []).map((page: Answer) =>
    page.error ? `## ${page.url}\n\nFailed: ${page.error}` : `${titled(page).replace(/^# /, '## ')}\n\n${pageText(page)}`,
  );
  return [head, ...pages].join('\n\n');
}

export const runStarted = (kind: string, statusTool: string) => (answer: Answer) =>
  `${kind} ${answer.id} started (status ${answer.status}). Call ${statusTool} with this id for its progress and results.`;

export const watchLine = (watch: Answer) =>
  `- ${watch.name} (${watch.url}), id ${watch.id}: every ${watch.interval_minutes} min, ${watch.active ? 'active' : 'paused'}` +
  `${watch.state === 'changed' || watch.state === 'unchanged' ? `, ${watch.state}` : ''}` +
  `${watch.last_changed_at ? `, last changed ${watch.last_changed_at}` : ''}${watch.last_error ? `, last error: ${watch.last_error}` : ''}`;

export const monitorLine = (monitor: Answer) =>
  `- ${monitor.name} (${monitor.kind} ${monitor.target}), id ${monitor.id}: every ${monitor.interval_minutes} min, ${monitor.active ? 'active' : 'paused'}` +
  `${monitor.last_matched_at ? `, last matched ${monitor.last_matched_at}` : ''}${monitor.last_error ? `, last error: ${monitor.last_error}` : ''}`;

export function diffMarkdown(answer: Answer): string {
  const head = `${answer.url}: ${answer.status}. ${answer.summary}`;
  return answer.diff.unified ? `${head}\n\n\`\`\`diff\n${answer.diff.unified}\n\`\`\`` : head;
}

export function leadMarkdown(lead: Answer): string {
  const { company, contacts } = lead;
  return (
    [
      `# ${company.name ?? lead.url}\n\nSource: ${lead.url}`,
      lead.summary ?? company.description,
      facts([
        ['Industry', company.industry],
        ['Founded', company.founded],
        ['Employees', company.employees],
        ['Address', company.address?.text],
        ['E-mails', list(contacts.emails)],
        ['Phones', list(contacts.phones)],
        ['Profiles', byKey(lead.socials)],
        ['Not found', list(lead.not_found)],
      ]),
    ]
      .filter(Boolean)
      .join('\n\n') + warnings(lead)
  );
}

export function leadBatchMarkdown(batch: Answer): string {
  const head = `Lead batch ${batch.id}: ${batch.status}, ${batch.completed} completed, ${batch.failed} failed of ${batch.total}`;
  const items = (batch.data ?? []).map((item: Answer) =>
    item.lead ? leadMarkdown(item.lead).replace(/^# /, '## ') : `## ${item.url}\n\n${item.error ? `Failed: ${item.error}` : item.status}`,
  );
  return [head, ...items].join('\n\n');
}

export function brandMarkdown(brand: Answer): string {
  return `# ${brand.name ?? brand.url}\n\nSource: ${brand.url}\n\n${facts([
    ['Logo', brand.logo?.url],
    ['Favicon', brand.favicon],
    ['Colours', byKey(brand.colors && Object.fromEntries(Object.entries(brand.colors).filter(([, c]) => c)))],
    ['Colour scheme', brand.color_scheme],
    ['Fonts', list(brand.fonts?.map((font: Answer) => `${font.role} ${font.family}`))],
    ['Tone', brand.tone],
    ['Personality', list(brand.personality)],
    ['Profiles', byKey(brand.socials)],
    ['Not found', list(brand.not_found)],
  ])}${warnings(brand)}`;
}

export function endpointsMarkdown(answer: Answer): string {
  const lines = answer.endpoints.map(
    (e: Answer) => `- \`${e.value}\` (${e.kind.replace('_', ' ')}, ${e.first_party ? 'first party' : 'third party'}, in ${e.source})`,
  );
  return (
    `${answer.endpoint_count} endpoint(s) in the scripts of ${answer.url} (${answer.bundles_scanned} bundle(s) scanned besides inline scripts)` +
    `${answer.truncated ? '; more bundles were linked than scanned' : ''}:\n\n${lines.join('\n') || 'None found.'}${warnings(answer)}`
  );
}

export function audienceMarkdown(answer: Answer): string {
  const users = answer.users.map((u: Answer) => `- @${u.screen_name} (${u.name}), ${u.followers} followers, id ${u.id}`);
  return (
    `${answer.count} ${answer.direction === 'following' ? 'accounts followed by' : 'followers of'} account ${answer.user_id}:\n\n${users.join('\n') || 'None.'}` +
    `${answer.next_cursor ? `\n\nMore: call again with cursor ${answer.next_cursor} and user_id ${answer.user_id}.` : ''}`
  );
}
