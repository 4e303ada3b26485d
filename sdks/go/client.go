package trawl

// One method per /v1 endpoint (each names its row of Endpoints, the list the drift test compares
// with /openapi.json), waiters for crawls, batches and lead batches, and pagers that follow `next`.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Endpoints lists every call this SDK makes, as "METHOD /path".
var Endpoints = []string{
	"GET /health", "GET /v1/plugins", "POST /v1/scrape", "POST /v1/map", "POST /v1/search", "POST /v1/extract", "POST /v1/summarize",
	"POST /v1/crawl", "GET /v1/crawl/{id}", "DELETE /v1/crawl/{id}", "GET /v1/crawl/{id}/pages", "GET /v1/crawl/{id}/stream",
	"GET /v1/crawl/history", "POST /v1/crawl/{id}/retry",
	"POST /v1/batch", "GET /v1/batch/{id}", "DELETE /v1/batch/{id}", "GET /v1/batch/{id}/stream",
	"POST /v1/lead", "POST /v1/lead/batch", "GET /v1/lead/batch/{id}", "POST /v1/brand", "POST /v1/diff", "POST /v1/endpoints",
	"POST /v1/webhooks", "GET /v1/webhooks", "GET /v1/webhooks/{id}", "PATCH /v1/webhooks/{id}", "DELETE /v1/webhooks/{id}",
	"GET /v1/webhooks/{id}/deliveries",
	"POST /v1/watch", "GET /v1/watch", "GET /v1/watch/{id}", "PATCH /v1/watch/{id}", "DELETE /v1/watch/{id}",
	"POST /v1/watch/{id}/check", "GET /v1/watch/{id}/diff",
	"POST /v1/watch/feed-token", "GET /v1/watch/feed-token", "DELETE /v1/watch/feed-token", "GET /v1/watch/feed.atom",
	"GET /v1/account", "GET /v1/keys", "POST /v1/keys", "PATCH /v1/keys/{id}", "DELETE /v1/keys/{id}",
	"POST /v1/social/monitors", "GET /v1/social/monitors", "GET /v1/social/monitors/{id}", "PATCH /v1/social/monitors/{id}",
	"DELETE /v1/social/monitors/{id}", "POST /v1/social/monitors/{id}/check", "POST /v1/social/audience",
	"GET /v1/cache/lookup", "GET /v1/results", "GET /v1/results/{id}", "GET /v1/results/run/{usage_log_id}", "GET /v1/usage",
}

// ErrWaitTimeout: a waiter ran out of time before the work ended.
var ErrWaitTimeout = errors.New("trawl: wait timed out")

// WaitOptions pace a waiter; zero values mean every second, for up to ten minutes.
type WaitOptions struct {
	PollInterval time.Duration
	Timeout      time.Duration
}

// resolve checks an endpoint is in Endpoints and fills its `{name}` placeholders in order.
func resolve(endpoint string, params ...string) (string, string) {
	known := false
	for _, e := range Endpoints {
		known = known || e == endpoint
	}
	if !known {
		panic("trawl: unknown endpoint " + endpoint)
	}
	method, template, _ := strings.Cut(endpoint, " ")
	segments := strings.Split(template, "/")
	for i, segment := range segments {
		if strings.HasPrefix(segment, "{") {
			segments[i] = url.PathEscape(params[0])
			params = params[1:]
		}
	}
	return method, strings.Join(segments, "/")
}

// Call calls one endpoint of Endpoints and decodes the answer into out.
func (c *Client) Call(ctx context.Context, endpoint string, params []string, query url.Values, body, out interface{}) error {
	method, path := resolve(endpoint, params...)
	return c.do(ctx, method, path, query, body, out)
}

func pageQuery(q PageQuery) url.Values {
	v := url.Values{}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage > 0 {
		v.Set("per_page", strconv.Itoa(q.PerPage))
	}
	return v
}

func call[T any](c *Client, ctx context.Context, endpoint string, params []string, query url.Values, body interface{}) (*T, error) {
	out := new(T)
	if err := c.Call(ctx, endpoint, params, query, body, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *Client) Health(ctx context.Context) (*Object, error) {
	return call[Object](c, ctx, "GET /health", nil, nil, nil)
}
func (c *Client) Plugins(ctx context.Context) (*Object, error) {
	return call[Object](c, ctx, "GET /v1/plugins", nil, nil, nil)
}
func (c *Client) Scrape(ctx context.Context, r ScrapeRequest) (*ScrapeResult, error) {
	return call[ScrapeResult](c, ctx, "POST /v1/scrape", nil, nil, r)
}
func (c *Client) Map(ctx context.Context, r URLRequest) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/map", nil, nil, r)
}
func (c *Client) Search(ctx context.Context, r SearchRequest) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/search", nil, nil, r)
}
func (c *Client) Extract(ctx context.Context, r ExtractRequest) (*ExtractResult, error) {
	return call[ExtractResult](c, ctx, "POST /v1/extract", nil, nil, r)
}
func (c *Client) Summarize(ctx context.Context, r SummarizeRequest) (*SummarizeResult, error) {
	return call[SummarizeResult](c, ctx, "POST /v1/summarize", nil, nil, r)
}
func (c *Client) Lead(ctx context.Context, r URLRequest) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/lead", nil, nil, r)
}
func (c *Client) Brand(ctx context.Context, r URLRequest) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/brand", nil, nil, r)
}
func (c *Client) Endpoints(ctx context.Context, r EndpointsRequest) (*EndpointsResult, error) {
	return call[EndpointsResult](c, ctx, "POST /v1/endpoints", nil, nil, r)
}
func (c *Client) Diff(ctx context.Context, r URLRequest) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/diff", nil, nil, r)
}

// Crawls

func (c *Client) StartCrawl(ctx context.Context, r CrawlRequest) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "POST /v1/crawl", nil, nil, r)
}
func (c *Client) GetCrawl(ctx context.Context, id string, q PageQuery) (*RunStatus, error) {
	return call[RunStatus](c, ctx, "GET /v1/crawl/{id}", []string{id}, pageQuery(q), nil)
}
func (c *Client) CancelCrawl(ctx context.Context, id string) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "DELETE /v1/crawl/{id}", []string{id}, nil, nil)
}

// CrawlPagesQuery selects crawl pages; Status is "completed", "failed" or empty for both.
type CrawlPagesQuery struct {
	PageQuery
	Status string
}

func (c *Client) CrawlPages(ctx context.Context, id string, q CrawlPagesQuery) (*List[CrawlPage], error) {
	query := pageQuery(q.PageQuery)
	if q.Status != "" {
		query.Set("status", q.Status)
	}
	return listOf[CrawlPage](c, ctx, "data", "GET /v1/crawl/{id}/pages", []string{id}, query)
}

// IterCrawlPages walks every finished page of a crawl.
func (c *Client) IterCrawlPages(id string, q CrawlPagesQuery) *Pager[CrawlPage] {
	return newPager(c, "data", func(ctx context.Context) (*List[CrawlPage], error) { return c.CrawlPages(ctx, id, q) })
}
func (c *Client) CrawlHistory(ctx context.Context, q PageQuery) (*List[RunStatus], error) {
	return listOf[RunStatus](c, ctx, "crawls", "GET /v1/crawl/history", nil, pageQuery(q))
}
func (c *Client) RetryCrawl(ctx context.Context, id string) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "POST /v1/crawl/{id}/retry", []string{id}, nil, nil)
}
func (c *Client) WaitForCrawl(ctx context.Context, id string, o WaitOptions) (*RunStatus, error) {
	return wait(ctx, o, func() (*RunStatus, error) { return c.GetCrawl(ctx, id, PageQuery{Limit: 1}) }, runEnded)
}

// Crawl starts a crawl and waits for it to end.
func (c *Client) Crawl(ctx context.Context, r CrawlRequest, o WaitOptions) (*RunStatus, error) {
	started, err := c.StartCrawl(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.WaitForCrawl(ctx, started.ID, o)
}

// Batches

func (c *Client) StartBatch(ctx context.Context, r BatchRequest) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "POST /v1/batch", nil, nil, r)
}
func (c *Client) GetBatch(ctx context.Context, id string, q PageQuery) (*RunStatus, error) {
	return call[RunStatus](c, ctx, "GET /v1/batch/{id}", []string{id}, pageQuery(q), nil)
}
func (c *Client) CancelBatch(ctx context.Context, id string) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "DELETE /v1/batch/{id}", []string{id}, nil, nil)
}
func (c *Client) WaitForBatch(ctx context.Context, id string, o WaitOptions) (*RunStatus, error) {
	return wait(ctx, o, func() (*RunStatus, error) { return c.GetBatch(ctx, id, PageQuery{Limit: 1}) }, runEnded)
}

// Batch starts a batch and waits for it to end.
func (c *Client) Batch(ctx context.Context, r BatchRequest, o WaitOptions) (*RunStatus, error) {
	started, err := c.StartBatch(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.WaitForBatch(ctx, started.ID, o)
}

// Lead batches

func (c *Client) StartLeadBatch(ctx context.Context, r LeadBatchRequest) (*RunStarted, error) {
	return call[RunStarted](c, ctx, "POST /v1/lead/batch", nil, nil, r)
}
func (c *Client) GetLeadBatch(ctx context.Context, id string) (*LeadBatch, error) {
	return call[LeadBatch](c, ctx, "GET /v1/lead/batch/{id}", []string{id}, nil, nil)
}
func (c *Client) WaitForLeadBatch(ctx context.Context, id string, o WaitOptions) (*LeadBatch, error) {
	return wait(ctx, o, func() (*LeadBatch, error) { return c.GetLeadBatch(ctx, id) }, func(b *LeadBatch) bool { return b.Status == "completed" })
}

// Webhooks

func (c *Client) CreateWebhook(ctx context.Context, r WebhookRequest) (*Webhook, error) {
	return call[Webhook](c, ctx, "POST /v1/webhooks", nil, nil, r)
}
func (c *Client) ListWebhooks(ctx context.Context, q PageQuery) (*List[Webhook], error) {
	return listOf[Webhook](c, ctx, "webhooks", "GET /v1/webhooks", nil, pageQuery(q))
}
func (c *Client) GetWebhook(ctx context.Context, id string) (*Webhook, error) {
	return call[Webhook](c, ctx, "GET /v1/webhooks/{id}", []string{id}, nil, nil)
}
func (c *Client) UpdateWebhook(ctx context.Context, id string, r WebhookRequest) (*Webhook, error) {
	return call[Webhook](c, ctx, "PATCH /v1/webhooks/{id}", []string{id}, nil, r)
}
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	return c.Call(ctx, "DELETE /v1/webhooks/{id}", []string{id}, nil, nil, nil)
}
func (c *Client) WebhookDeliveries(ctx context.Context, id string, q PageQuery) (*List[Object], error) {
	return listOf[Object](c, ctx, "deliveries", "GET /v1/webhooks/{id}/deliveries", []string{id}, pageQuery(q))
}

// Watches

func (c *Client) CreateWatch(ctx context.Context, r WatchRequest) (*Watch, error) {
	return call[Watch](c, ctx, "POST /v1/watch", nil, nil, r)
}
func (c *Client) ListWatches(ctx context.Context, q PageQuery) (*List[Watch], error) {
	return listOf[Watch](c, ctx, "watches", "GET /v1/watch", nil, pageQuery(q))
}
func (c *Client) GetWatch(ctx context.Context, id string) (*Watch, error) {
	return call[Watch](c, ctx, "GET /v1/watch/{id}", []string{id}, nil, nil)
}
func (c *Client) UpdateWatch(ctx context.Context, id string, r WatchRequest) (*Watch, error) {
	return call[Watch](c, ctx, "PATCH /v1/watch/{id}", []string{id}, nil, r)
}
func (c *Client) DeleteWatch(ctx context.Context, id string) error {
	return c.Call(ctx, "DELETE /v1/watch/{id}", []string{id}, nil, nil, nil)
}
func (c *Client) CheckWatch(ctx context.Context, id string) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/watch/{id}/check", []string{id}, nil, nil)
}

// WatchDiff compares two snapshots (empty from/to: the server's default, the last two).
func (c *Client) WatchDiff(ctx context.Context, id, from, to string) (*Object, error) {
	query := url.Values{}
	if from != "" {
		query.Set("from", from)
	}
	if to != "" {
		query.Set("to", to)
	}
	return call[Object](c, ctx, "GET /v1/watch/{id}/diff", []string{id}, query, nil)
}

// Stored results and usage (cloud mode)

func (c *Client) CacheLookup(ctx context.Context, endpoint, target string) (*StoredResult, error) {
	return call[StoredResult](c, ctx, "GET /v1/cache/lookup", nil, url.Values{"endpoint": {endpoint}, "url": {target}}, nil)
}

// ResultsQuery selects stored results; Endpoint filters by the endpoint that made them.
type ResultsQuery struct {
	PageQuery
	Endpoint string
}

func (c *Client) ListResults(ctx context.Context, q ResultsQuery) (*List[StoredResult], error) {
	query := pageQuery(q.PageQuery)
	if q.Endpoint != "" {
		query.Set("endpoint", q.Endpoint)
	}
	return listOf[StoredResult](c, ctx, "results", "GET /v1/results", nil, query)
}

// IterResults walks every stored result.
func (c *Client) IterResults(q ResultsQuery) *Pager[StoredResult] {
	return newPager(c, "results", func(ctx context.Context) (*List[StoredResult], error) { return c.ListResults(ctx, q) })
}
func (c *Client) GetResult(ctx context.Context, id string) (*StoredResult, error) {
	return call[StoredResult](c, ctx, "GET /v1/results/{id}", []string{id}, nil, nil)
}
func (c *Client) RunResult(ctx context.Context, usageLogID string) (*StoredResult, error) {
	return call[StoredResult](c, ctx, "GET /v1/results/run/{usage_log_id}", []string{usageLogID}, nil, nil)
}
func (c *Client) Usage(ctx context.Context, query url.Values) (*Object, error) {
	return call[Object](c, ctx, "GET /v1/usage", nil, query, nil)
}

func runEnded(r *RunStatus) bool {
	return r.Status == "completed" || r.Status == "failed" || r.Status == "cancelled"
}

func wait[T any](ctx context.Context, o WaitOptions, get func() (*T, error), done func(*T) bool) (*T, error) {
	if o.PollInterval == 0 {
		o.PollInterval = time.Second
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Minute
	}
	deadline := time.Now().Add(o.Timeout)
	for {
		current, err := get()
		if err != nil {
			return nil, err
		}
		if done(current) {
			return current, nil
		}
		if time.Now().Add(o.PollInterval).After(deadline) {
			return current, fmt.Errorf("%w after %s", ErrWaitTimeout, o.Timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(o.PollInterval):
		}
	}
}
