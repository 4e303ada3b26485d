/**
 * What the language-model test servers share: a conversation as each server received it (its
 * messages in a common shape, the schema asked for), the answer a test scripts for it, and token
 * counts for the usage fields (four characters a token, as providers roughly count English).
 */
export interface Conversation {
  messages: Array<{ role: string; content: string }>;
  /** The JSON Schema the request asked the answer to match, if any. */
  schema?: Record<string, unknown>;
  maxTokens?: number;
  model: string;
}

/** The model's reply: text (JSON for a schema), and whether it stopped at the token limit. */
export interface ScriptedAnswer {
  content: string;
  /** The answer ran into the token limit (`finish_reason: length`, `done_reason: length`, `MAX_TOKENS`). */
  truncated?: boolean;
}

export type Answerer = (conversation: Conversation) => string | ScriptedAnswer;

export const answerOf = (value: string | ScriptedAnswer): ScriptedAnswer => (typeof value === 'string' ? { content: value } : value);

export const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** The text of the last user message (what a test's answerer usually reads). */
export const lastUser = (conversation: Conversation) => [...conversation.messages].reverse().find((m) => m.role === 'user')?.content ?? '';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export { isObject };
