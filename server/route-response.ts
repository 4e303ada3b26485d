/**
 * A handler's result as the route runner answers it: a Response as returned, anything else as JSON,
 * with the runner's headers (rate limit, credits) added.
 */
export const toResponse = (result: unknown): Response => (result instanceof Response ? result : Response.json(result));

/** `under`: headers the response already has win (an error's own credit headers are the latest). */
export function withHeaders(response: Response, headers: Record<string, string>, under = false): Response {
  for (const [name, value] of Object.entries(headers)) if (!under || !response.headers.has(name)) response.headers.set(name, value);
  return response;
}
