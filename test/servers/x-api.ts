/**
 * The social network's API v2 as documented, for the `social.x` source: `GET /2/users/by/username/:u`,
 * `/2/users/:id/tweets` (`since_id`, `exclude`, `pagination_token`, max_results 5–100),
 * `/2/tweets/search/recent` (`query` with `from:`, `conversation_id:`, `-is:retweet|reply|quote`,
 * `lang:`, `min_likes:` — `min_faves:` is a 400 —, `since_id`, `next_token`, 10–100),
 * `/2/lists/:id/tweets` (no `since_id`, 1–100) and `/2/users/:id/followers|following` (1–1000). Bearer
 * token required (401 problem otherwise); posts newest first by numeric id; an empty answer is
 * exactly `{meta: {result_count: 0}}`; opaque pagination tokens of 16+ characters; only `id`, `text`
 * and `edit_history_tweet_ids` unless `tweet.fields` asks for more; `includes` only for requested
 * expansions; unknown handles are 200 with only `errors`; errors are problem JSON; every answer
 * carries `x-rate-limit-limit/-remaining/-reset` (epoch seconds), and a spent bucket is a 429.
 */
export const X_TEST_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAtest-bearer-token';

export interface XUser {
  id: string;
  username: string;
  name: string;
  description?: string;
  url?: string;
  followers_count?: number;
}
export interface XTweet {
  id: string;
  author_id: string;
  text: string;
  lang?: string;
  like_count?: number;
  created_at?: string;
  conversation_id?: string;
  refs?: Array<{ type: 'retweeted' | 'quoted' | 'replied_to'; id: string }>;
}

const problem = (status: number, title: string, detail: string, type: string, headers: Record<string, string> = {}) =>
  Response.json(
    { title, detail, type: `https://api.x.com/2/problems/${type}`, status },
    { status, headers: { ...headers, 'content-type': 'application/problem+json' } },
  );
const invalid = (parameter: string, value: string, message: string) =>
  Response.json(
    {
      errors: [{ parameters: { [parameter]: [value] }, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.x.com/2/problems/invalid-request',
    },
    { status: 400 },
  );

const tokenOf = (offset: number) => Buffer.from(`page-offset-${String(offset).padStart(8, '0')}`).toString('base64url');
const offsetOf = (token: string | null) => (token ? Number(Buffer.from(token, 'base64url').toString().replace('page-offset-', '')) : 0);
const byIdDesc = (a: XTweet, b: XTweet) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1);

export function startXApiServer() {
  const state = {
    users: [] as XUser[],
    tweets: [] as XTweet[],
    lists: new Map<string, string[]>(),
    followers: new Map<string, string[]>(),
    following: new Map<string, string[]>(),
    requests: [] as Array<{ path: string; query: URLSearchParams }>,
    /** Calls left in the current window; at 0 the answer is 429 until `resetAt` (epoch s). */
    remaining: 1000,
    resetAt: Math.floor(Date.now() / 1000) + 900,
    /** The app's usage cap is spent: every call answers the API's `usage-capped` problem (HTTP 429, no reset helps). */
    capped: false,
    /** Audience pages served before the next ones answer 503 (null: never). */
    audiencePagesBeforeFailure: null as number | null,
  };

  function tweetJson(t: XTweet, fields: Set<string>) {
    const out: Record<string, unknown> = { id: t.id, text: t.text, edit_history_tweet_ids: [t.id] };
    if (fields.has('author_id')) out.author_id = t.author_id;
    if (fields.has('lang')) out.lang = t.lang ?? 'en';
    if (fields.has('created_at')) out.created_at = t.created_at ?? new Date(Number(BigInt(t.id) >> 22n) + 1288834974657).toISOString();
    if (fields.has('conversation_id')) out.conversation_id = t.conversation_id ?? t.id;
    if (fields.has('public_metrics'))
      out.public_metrics = {
        retweet_count: 0,
        reply_count: 0,
        like_count: t.like_count ?? 0,
        quote_count: 0,
        bookmark_count: 0,
        impression_count: 0,
      };
    if (fields.has('referenced_tweets') && t.refs?.length) out.referenced_tweets = t.refs;
    return out;
  }

  function userJson(u: XUser, fields: Set<string>) {
    const out: Record<string, unknown> = { id: u.id, name: u.name, username: u.username };
    if (fields.has('description')) out.description = u.description ?? '';
    if (fields.has('url')) out.url = u.url ?? '';
    if (fields.has('public_metrics'))
      out.public_metrics = { followers_count: u.followers_count ?? 0, following_count: 0, tweet_count: 0, listed_count: 0 };
    return out;
  }

  function timeline(
    query: URLSearchParams,
    all: XTweet[],
    bounds: [number, number],
    defaultMax: number,
    tokenParam: string,
    useSince: boolean,
  ) {
    const max = Number(query.get('max_results') ?? defaultMax);
    if (!Number.isInteger(max) || max < bounds[0] || max > bounds[1])
      return invalid(
        'max_results',
        String(query.get('max_results')),
        `The \`max_results\` query parameter value [${query.get('max_results')}] is not between ${bounds[0]} and ${bounds[1]}`,
      );
    const since = useSince ? query.get('since_id') : null;
    const sorted = all.filter((t) => !since || BigInt(t.id) > BigInt(since)).sort(byIdDesc);
    const offset = offsetOf(query.get(tokenParam) ?? query.get('pagination_token'));
    const page = sorted.slice(offset, offset + max);
    if (!page.length) return Response.json({ meta: { result_count: 0 } });
    const fields = new Set((query.get('tweet.fields') ?? query.get('post.fields') ?? '').split(','));
    const expansions = new Set((query.get('expansions') ?? '').split(','));
    const userFields = new Set((query.get('user.fields') ?? '').split(','));
    const body: Record<string, unknown> = { data: page.map((t) => tweetJson(t, fields)) };
    const includes: Record<string, unknown[]> = {};
    const referenced = expansions.has('referenced_tweets.id')
      ? state.tweets.filter((t) => page.some((p) => p.refs?.some((r) => r.id === t.id)))
      : [];
    if (referenced.length) includes.tweets = referenced.map((t) => tweetJson(t, fields));
    if (expansions.has('author_id')) {
      const authors = new Set([...page, ...(expansions.has('referenced_tweets.id.author_id') ? referenced : [])].map((t) => t.author_id));
      includes.users = state.users.filter((u) => authors.has(u.id)).map((u) => userJson(u, userFields));
    }
    if (Object.keys(includes).length) body.includes = includes;
    body.meta = {
      result_count: page.length,
      newest_id: page[0]!.id,
      oldest_id: page.at(-1)!.id,
      ...(offset + max < sorted.length ? { next_token: tokenOf(offset + max) } : {}),
    };
    return Response.json(body);
  }

  function search(query: URLSearchParams) {
    const q = query.get('query') ?? '';
    if (!q || q.length > 512) return invalid('query', q, 'The `query` query parameter value is invalid');
    if (/min_faves:/.test(q))
      return invalid('query', q, "There were errors processing your request: Reference to invalid operator 'min_faves'");
    const terms = q.replace(/[()]/g, ' ').split(/\s+/).filter(Boolean);
    const tweets = state.tweets.filter((t) =>
      terms.every((term) => {
        const types = new Set(t.refs?.map((r) => r.type));
        const [op, value] = term.split(':');
        if (term === '-is:retweet') return !types.has('retweeted');
        if (term === '-is:reply') return !types.has('replied_to');
        if (term === '-is:quote') return !types.has('quoted');
        if (op === 'conversation_id' && value) return (t.conversation_id ?? t.id) === value;
        if (op === 'from' && value) return state.users.find((u) => u.id === t.author_id)?.username.toLowerCase() === value.toLowerCase();
        if (op === 'lang' && value) return (t.lang ?? 'en') === value;
        if (op === 'min_likes' && value) return (t.like_count ?? 0) >= Number(value);
        return t.text.toLowerCase().includes(term.toLowerCase());
      }),
    );
    return timeline(query, tweets, [10, 100], 10, 'next_token', true);
  }

  function audience(query: URLSearchParams, ids: string[]) {
    const max = Number(query.get('max_results') ?? 100);
    if (!Number.isInteger(max) || max < 1 || max > 1000)
      return invalid('max_results', String(query.get('max_results')), 'max_results out of range');
    const token = query.get('pagination_token');
    if (token !== null && token.length < 16)
      return invalid('pagination_token', token, 'The `pagination_token` query parameter value is invalid');
    const offset = offsetOf(token);
    const page = ids.slice(offset, offset + max).map((id) => state.users.find((u) => u.id === id)!);
    const fields = new Set((query.get('user.fields') ?? '').split(','));
    if (!page.length) return Response.json({ meta: { result_count: 0 } });
    return Response.json({
      data: page.map((u) => userJson(u, fields)),
      meta: {
        result_count: page.length,
        ...(offset + max < ids.length ? { next_token: tokenOf(offset + max) } : {}),
        ...(offset > 0 ? { previous_token: tokenOf(Math.max(0, offset - max)) } : {}),
      },
    });
  }

  function route(path: string, query: URLSearchParams): Response {
    let m: RegExpMatchArray | null;
    if ((m = path.match(/^\/2\/users\/by\/username\/([^/]+)$/))) {
      const user = state.users.find((u) => u.username.toLowerCase() === decodeURIComponent(m![1]!).toLowerCase());
      if (!user)
        return Response.json({
          errors: [
            {
              value: m[1],
              detail: `Could not find user with username: [${m[1]}].`,
              title: 'Not Found Error',
              resource_type: 'user',
              parameter: 'username',
              resource_id: m[1],
              type: 'https://api.x.com/2/problems/resource-not-found',
            },
          ],
        });
      return Response.json({ data: userJson(user, new Set((query.get('user.fields') ?? '').split(','))) });
    }
    if ((m = path.match(/^\/2\/users\/(\d+)\/tweets$/))) {
      const exclude = new Set((query.get('exclude') ?? '').split(','));
      const own = state.tweets.filter(
        (t) =>
          t.author_id === m![1] &&
          !(exclude.has('retweets') && t.refs?.some((r) => r.type === 'retweeted')) &&
          !(exclude.has('replies') && t.refs?.some((r) => r.type === 'replied_to')),
      );
      return timeline(query, own, [5, 100], 10, 'pagination_token', true);
    }
    if (path === '/2/tweets/search/recent') return search(query);
    if ((m = path.match(/^\/2\/lists\/(\d+)\/tweets$/))) {
      const ids = state.lists.get(m[1]!);
      if (!ids) return problem(404, 'Not Found Error', `Could not find list with id: [${m[1]}].`, 'resource-not-found');
      if (query.has('since_id'))
        return invalid(
          'since_id',
          query.get('since_id')!,
          'The query parameter [since_id] is not one of [id,max_results,pagination_token,expansions,tweet.fields,user.fields]',
        );
      return timeline(
        query,
        state.tweets.filter((t) => ids.includes(t.id)),
        [1, 100],
        100,
        'pagination_token',
        false,
      );
    }
    if ((m = path.match(/^\/2\/users\/(\d+)\/(followers|following)$/))) {
      if (state.audiencePagesBeforeFailure !== null && state.audiencePagesBeforeFailure-- <= 0)
        return problem(503, 'Service Unavailable', 'The service is temporarily unavailable', 'service-unavailable');
      return audience(query, (m[2] === 'followers' ? state.followers : state.following).get(m[1]!) ?? []);
    }
    return problem(404, 'Not Found Error', 'Sorry, that page does not exist.', 'resource-not-found');
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      state.requests.push({ path: url.pathname, query: url.searchParams });
      if (request.headers.get('authorization') !== `Bearer ${X_TEST_TOKEN}`)
        return Response.json({ title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }, { status: 401 });
      const limits = {
        'x-rate-limit-limit': '1000',
        'x-rate-limit-remaining': String(Math.max(0, state.remaining - 1)),
        'x-rate-limit-reset': String(state.resetAt),
      };
      if (state.remaining <= 0)
        return Response.json(
          { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
          { status: 429, headers: { ...limits, 'x-rate-limit-remaining': '0' } },
        );
      if (state.capped) return problem(429, 'UsageCapExceeded', 'Usage cap exceeded: Monthly product cap', 'usage-capped', limits);
      state.remaining--;
      const response = route(url.pathname, url.searchParams);
      for (const [name, value] of Object.entries(limits)) response.headers.set(name, value);
      return response;
    },
  });
  return Object.assign(state, { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) });
}

export type XApiServer = ReturnType<typeof startXApiServer>;
