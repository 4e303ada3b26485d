package trawl_test

// The Go SDK against a real Trawl server: every method once, the waiters, pagination, the crawl
// stream resumed after dropped connections, each error, a retry after a 429, webhook verification,
// and the drift check against /openapi.json. The world (server, fixture site, keys) comes from
// sdks/harness.ts as JSON in TRAWL_SDK_TEST_ENV; run through `bun test sdks`.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	trawl "github.com/trawl/trawl/sdks/go"
)

var env struct {
	URL        string            `json:"url"`
	FlakyURL   string            `json:"flakyUrl"`
	CuttingURL string            `json:"cuttingUrl"`
	Site       string            `json:"site"`
	Keys       map[string]string `json:"keys"`
}

var ctx = context.Background()

func TestMain(m *testing.M) {
	raw := os.Getenv("TRAWL_SDK_TEST_ENV")
	if raw == "" {
		fmt.Fprintln(os.Stderr, "TRAWL_SDK_TEST_ENV is not set: run these tests through `bun test sdks` (sdks/languages.test.ts)")
		os.Exit(1)
	}
	if err := json.Unmarshal([]byte(raw), &env); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func site(path string) string { return env.Site + path }

func client(key, base string, retries int) *trawl.Client {
	if k, ok := env.Keys[key]; ok {
		key = k
	}
	return trawl.New(trawl.Options{BaseURL: base, APIKey: key, MaxRetries: retries, Backoff: 20 * time.Millisecond})
}

// must unwraps a call's result; an error panics, which fails the run with the stack.
func must[T any](value T, err error) T {
	if err != nil {
		panic(err)
	}
	return value
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func check(t *testing.T, ok bool, format string, args ...interface{}) {
	t.Helper()
	if !ok {
		t.Fatalf(format, args...)
	}
}

func TestDriftAndVersion(t *testing.T) {
	res := must(http.Get(env.URL + "/openapi.json"))
	defer res.Body.Close()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	noErr(t, json.NewDecoder(res.Body).Decode(&doc))
	var documented []string
	for path, ops := range doc.Paths {
		if strings.HasPrefix(path, "/v1/") || path == "/health" {
			for method := range ops {
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	ours := append([]string(nil), trawl.Endpoints...)
	sort.Strings(ours)
	sort.Strings(documented)
	check(t, reflect.DeepEqual(ours, documented), "SDK endpoints differ from /openapi.json:\nSDK: %v\ndoc: %v", ours, documented)
	var pkg struct{ Version string }
	noErr(t, json.Unmarshal(must(os.ReadFile("../../package.json")), &pkg))
	check(t, trawl.Version == pkg.Version, "Version %s, Trawl %s", trawl.Version, pkg.Version)
}

func TestEnvironment(t *testing.T) {
	t.Setenv("TRAWL_API_URL", env.URL)
	t.Setenv("TRAWL_API_KEY", env.Keys["main"])
	plugins := must(trawl.New(trawl.Options{}).Plugins(ctx))
	check(t, len((*plugins)["plugins"].([]interface{})) > 0, "no plugins")
}

func TestOneShot(t *testing.T) {
	c := client("main", env.URL, 0)
	check(t, (*must(c.Health(ctx)))["status"] != nil, "health without status")
	page := must(c.Scrape(ctx, trawl.ScrapeRequest{URL: site("/a"), ScrapeOptions: trawl.ScrapeOptions{Formats: []string{"markdown", "links"}}}))
	check(t, strings.Contains(page.Markdown, "Page a"), "markdown: %q", page.Markdown)
	check(t, len((*must(c.Map(ctx, trawl.URLRequest{URL: site("/")})))["links"].([]interface{})) > 0, "map without links")
	found := must(json.Marshal(must(c.Search(ctx, trawl.SearchRequest{Query: "sea"}))))
	check(t, strings.Contains(string(found), site("/a")), "search: %s", found)
	schema := trawl.Object{"type": "object", "properties": trawl.Object{"title": trawl.Object{"type": "string"}}, "required": []string{"title"}}
	extracted := must(c.Extract(ctx, trawl.ExtractRequest{URL: site("/a"), Schema: schema}))
	check(t, string(extracted.Data) == `{"title":"Tides"}`, "extract: %s", extracted.Data)
	check(t, must(c.Summarize(ctx, trawl.SummarizeRequest{URL: site("/a")})).Summary == "Tides", "summary")
	lead := must(json.Marshal(must(c.Lead(ctx, trawl.URLRequest{URL: site("/")}))))
	check(t, strings.Contains(string(lead), "hello@example.com"), "lead: %s", lead)
	must(c.Brand(ctx, trawl.URLRequest{URL: site("/")}))
	must(c.Diff(ctx, trawl.URLRequest{URL: site("/b")}))
	discovered := false
	for _, e := range must(c.Endpoints(ctx, trawl.EndpointsRequest{URL: site("/api")})).Endpoints {
		discovered = discovered || e.Value == "/api/v2/orders"
	}
	check(t, discovered, "endpoints: /api/v2/orders not found")
}

func streamIDs(t *testing.T, s *trawl.EventStream) ([]int64, trawl.StreamEvent) {
	var ids []int64
	var last trawl.StreamEvent
	for s.Next() {
		last = s.Event()
		ids = append(ids, last.ID)
	}
	noErr(t, s.Err())
	return ids, last
}

func TestCrawl(t *testing.T) {
	c := client("main", env.URL, 0)
	quick := trawl.WaitOptions{PollInterval: 50 * time.Millisecond, Timeout: 20 * time.Second}
	done := must(c.Crawl(ctx, trawl.CrawlRequest{URL: site("/"), MaxPages: 4}, quick))
	check(t, done.Status == "completed" && done.Completed == 4, "crawl: %+v", done)
	var urls []string
	pager := c.IterCrawlPages(done.ID, trawl.CrawlPagesQuery{PageQuery: trawl.PageQuery{Limit: 1}})
	for pager.Next(ctx) {
		urls = append(urls, pager.Item().URL)
	}
	noErr(t, pager.Err())
	sort.Strings(urls)
	want := []string{site("/"), site("/a"), site("/b"), site("/c")}
	sort.Strings(want)
	check(t, reflect.DeepEqual(urls, want), "pages %v", urls)
	check(t, must(c.CrawlPages(ctx, done.ID, trawl.CrawlPagesQuery{Status: "failed"})).Total == 0, "failed pages")
	history := must(c.CrawlHistory(ctx, trawl.PageQuery{}))
	check(t, len(history.Items) > 0, "empty history")
	second := must(c.CrawlPages(ctx, done.ID, trawl.CrawlPagesQuery{PageQuery: trawl.PageQuery{Limit: 2, Offset: 2}}))
	check(t, second.Total == 4 && second.Limit == 2 && second.Offset == 2 && len(second.Items) == 2 && second.Next == "", "second slice %+v", second)
	alias := must(c.CrawlPages(ctx, done.ID, trawl.CrawlPagesQuery{PageQuery: trawl.PageQuery{Page: 2, PerPage: 2}}))
	check(t, alias.Offset == 2 && alias.Items[0].URL == second.Items[0].URL, "alias slice %+v", alias)

	ids, end := streamIDs(t, client("main", env.CuttingURL, 0).StreamCrawl(ctx, done.ID, trawl.StreamOptions{}))
	check(t, reflect.DeepEqual(ids, []int64{1, 2, 3, 4, 0}) && end.Event == "end", "resumed stream: %v %+v", ids, end)
	ids, _ = streamIDs(t, c.StreamCrawl(ctx, done.ID, trawl.StreamOptions{LastEventID: 2}))
	check(t, reflect.DeepEqual(ids, []int64{3, 4, 0}), "from 2: %v", ids)

	retried := must(c.RetryCrawl(ctx, done.ID))
	must(c.WaitForCrawl(ctx, retried.ID, quick))
	_, err := c.CancelCrawl(ctx, done.ID)
	check(t, errors.Is(err, trawl.ErrConflict), "cancel ended: %v", err)
	slow := must(c.StartCrawl(ctx, trawl.CrawlRequest{URL: site("/slow")}))
	_, err = c.WaitForCrawl(ctx, slow.ID, trawl.WaitOptions{PollInterval: time.Millisecond, Timeout: time.Nanosecond})
	check(t, errors.Is(err, trawl.ErrWaitTimeout), "wait: %v", err)
	check(t, must(c.CancelCrawl(ctx, slow.ID)).Status == "cancelled", "cancel")
}

func TestBatches(t *testing.T) {
	c := client("main", env.URL, 0)
	quick := trawl.WaitOptions{PollInterval: 50 * time.Millisecond, Timeout: 20 * time.Second}
	batch := must(c.Batch(ctx, trawl.BatchRequest{URLs: []string{site("/a"), site("/b")}}, quick))
	check(t, batch.Status == "completed" && batch.Completed == 2, "batch %+v", batch)
	check(t, len(must(c.GetBatch(ctx, batch.ID, trawl.PageQuery{})).Data) == 2, "batch data")
	ids, end := streamIDs(t, c.StreamBatch(ctx, batch.ID, trawl.StreamOptions{}))
	check(t, len(ids) == 3 && end.Event == "end", "batch stream %v", ids)
	_, err := c.CancelBatch(ctx, batch.ID)
	check(t, errors.Is(err, trawl.ErrConflict), "cancel ended batch: %v", err)
	leads := must(c.StartLeadBatch(ctx, trawl.LeadBatchRequest{URLs: []string{site("/"), site("/a")}}))
	finished := must(c.WaitForLeadBatch(ctx, leads.ID, quick))
	check(t, finished.Status == "completed" && finished.Total == 2, "lead batch %+v", finished)
}

func TestWebhooksAndWatches(t *testing.T) {
	c := client("main", env.URL, 0)
	hook := must(c.CreateWebhook(ctx, trawl.WebhookRequest{URL: site("/hook"), Events: []string{"crawl.completed"}}))
	check(t, strings.HasPrefix(hook.Secret, "whsec_"), "secret")
	check(t, len(must(c.ListWebhooks(ctx, trawl.PageQuery{})).Items) > 0, "no webhooks")
	check(t, must(c.GetWebhook(ctx, hook.ID)).URL == site("/hook"), "webhook url")
	off := false
	check(t, !must(c.UpdateWebhook(ctx, hook.ID, trawl.WebhookRequest{Active: &off})).Active, "still active")
	check(t, must(c.WebhookDeliveries(ctx, hook.ID, trawl.PageQuery{})).Total == 0, "deliveries")
	noErr(t, c.DeleteWebhook(ctx, hook.ID))
	_, err := c.GetWebhook(ctx, hook.ID)
	check(t, errors.Is(err, trawl.ErrNotFound), "deleted webhook: %v", err)

	watch := must(c.CreateWatch(ctx, trawl.WatchRequest{URL: site("/c"), Name: "c", IgnorePatterns: []string{"clock"}, TriggerText: []string{"sea"}, Tags: []string{"docs"}}))
	check(t, reflect.DeepEqual([][]string{watch.IgnorePatterns, watch.TriggerText, watch.Tags}, [][]string{{"clock"}, {"sea"}, {"docs"}}) && watch.State == "new", "watch fields: %+v", watch)
	check(t, len(must(c.ListWatches(ctx, trawl.PageQuery{})).Items) > 0, "no watches")
	check(t, *must(c.UpdateWatch(ctx, watch.ID, trawl.WatchRequest{Name: "page c"})).Name == "page c", "rename")
	must(c.CheckWatch(ctx, watch.ID))
	for deadline := time.Now().Add(10 * time.Second); len(must(c.GetWatch(ctx, watch.ID)).Snapshots) < 2; time.Sleep(30 * time.Millisecond) {
		check(t, time.Now().Before(deadline), "the manual check made no snapshot")
	}
	snapshots := must(c.GetWatch(ctx, watch.ID)).Snapshots
	check(t, snapshots[0].Status != "" && snapshots[0].CheckedAt != nil, "snapshot fields: %+v", snapshots[0])
	must(c.WatchDiff(ctx, watch.ID, "", ""))
	noErr(t, c.DeleteWatch(ctx, watch.ID))
}

// The account tests use a workspace of their own: its keys change here, and main's per-minute
// budget stays the other tests'.
func TestAccountAndKeys(t *testing.T) {
	c := client("account", env.URL, 0)
	account := must(c.Account(ctx))
	check(t, account.Mode == "cloud" && account.Role == "admin" && *account.Plan == "starter" && account.Balance != nil, "account: %+v", account)
	created := must(c.CreateKey(ctx, trawl.KeyRequest{Name: "ci", Role: "member"}))
	check(t, strings.HasPrefix(created.Secret, "trawl_") && *created.Suffix == created.Secret[len(created.Secret)-4:], "created: %+v", created)
	check(t, *created.Name == "ci" && created.Role == "member" && created.RevokedAt == nil, "created: %+v", created)
	found, current := false, false
	for keys := c.IterKeys(trawl.PageQuery{Limit: 1}); keys.Next(ctx); {
		key := keys.Item()
		found = found || (key.ID == created.ID && key.Secret == "" && key.Role == "member")
		current = current || key.Current
		noErr(t, keys.Err())
	}
	check(t, found && current, "listed keys: found %v, current %v", found, current)
	name := "deploys"
	check(t, *must(c.RenameKey(ctx, created.ID, &name)).Name == name, "rename")
	member := client(created.Secret, env.URL, 0)
	own := must(member.Account(ctx))
	check(t, own.Role == "member" && own.Balance == nil && own.Key.ID == created.ID, "member account: %+v", own)
	_, err := member.ListKeys(ctx, trawl.PageQuery{})
	check(t, errors.Is(err, trawl.ErrForbidden), "a member listed keys: %v", err)
	revoked := must(c.RevokeKey(ctx, created.ID))
	check(t, revoked.Success && revoked.ID == created.ID && revoked.RevokedAt != nil, "revoked: %+v", revoked)
	_, err = member.Account(ctx)
	check(t, errors.Is(err, trawl.ErrUnauthorized), "a revoked key worked: %v", err)
	for _, key := range must(c.ListKeys(ctx, trawl.PageQuery{})).Items {
		check(t, key.ID != created.ID, "the revoked key is still listed")
	}
}

func TestWatchFeedToken(t *testing.T) {
	c := client("account", env.URL, 0)
	token := must(c.CreateFeedToken(ctx))
	check(t, strings.HasPrefix(token.Token, "trawl_feed_") && strings.HasSuffix(token.FeedURL, "/v1/watch/feed.atom?token="+token.Token), "token: %+v", token)
	status := must(c.GetFeedToken(ctx))
	check(t, status.Active && status.CreatedAt.Equal(token.CreatedAt), "status: %+v", status)
	reader := client("", env.URL, 0) // no API key: the token alone opens the feed, as in a feed reader
	check(t, strings.Contains(must(reader.WatchFeed(ctx, token.Token)), `<feed xmlns="http://www.w3.org/2005/Atom">`), "not an Atom feed")
	_, err := reader.WatchFeed(ctx, "trawl_feed_wrong")
	check(t, errors.Is(err, trawl.ErrUnauthorized), "a wrong token: %v", err)
	noErr(t, c.RevokeFeedToken(ctx))
	check(t, !must(c.GetFeedToken(ctx)).Active, "still active")
	_, err = reader.WatchFeed(ctx, token.Token)
	check(t, errors.Is(err, trawl.ErrUnauthorized), "a revoked token: %v", err)
	check(t, errors.Is(c.RevokeFeedToken(ctx), trawl.ErrNotFound), "revoked twice")
}

func TestSocial(t *testing.T) {
	c := client("main", env.URL, 0)
	monitor := must(c.CreateSocialMonitor(ctx, trawl.SocialMonitorRequest{Kind: "profile", Target: "harbour"}))
	check(t, len(must(c.ListSocialMonitors(ctx, 0, 0))) > 0, "no monitors")
	monitors := must(c.SocialMonitorsPage(ctx, trawl.PageQuery{Limit: 1}))
	walked := 0
	for pager := c.IterSocialMonitors(trawl.PageQuery{Limit: 1}); pager.Next(ctx); {
		walked++
	}
	check(t, monitors.Total > 0 && len(monitors.Items) == 1 && walked == monitors.Total, "monitor pages %+v, walked %d", monitors, walked)
	noErr(t, c.UpdateSocialMonitor(ctx, monitor.ID, trawl.SocialMonitorRequest{Name: "harbour posts"}))
	check(t, *must(c.GetSocialMonitor(ctx, monitor.ID)).Name == "harbour posts", "rename")
	check(t, (*must(c.CheckSocialMonitor(ctx, monitor.ID)))["status"] == "checking", "check")
	noErr(t, c.DeleteSocialMonitor(ctx, monitor.ID))
	_, err := c.GetSocialMonitor(ctx, monitor.ID)
	check(t, errors.Is(err, trawl.ErrNotFound), "deleted monitor: %v", err)
	first := must(c.Audience(ctx, trawl.AudienceRequest{Handle: "harbour", MaxPages: 1}))
	check(t, first.UserID == "42" && first.Count == 1000, "audience %+v", first.Count)
	seen := map[string]bool{}
	pager := c.IterAudience(trawl.AudienceRequest{Handle: "harbour", MaxPages: 1})
	for pager.Next(ctx) {
		seen[pager.Item().ID] = true
	}
	noErr(t, pager.Err())
	check(t, len(seen) == 2500, "audience walked %d", len(seen))
}

func TestResultsAndUsage(t *testing.T) {
	c := client("main", env.URL, 0)
	must(c.Scrape(ctx, trawl.ScrapeRequest{URL: site("/b")}))
	var results []trawl.StoredResult
	pager := c.IterResults(trawl.ResultsQuery{PageQuery: trawl.PageQuery{PerPage: 1}})
	for pager.Next(ctx) {
		results = append(results, pager.Item())
	}
	noErr(t, pager.Err())
	check(t, len(results) > 1, "results %d", len(results))
	check(t, must(c.GetResult(ctx, results[0].ID)).ID == results[0].ID, "result")
	check(t, must(c.CacheLookup(ctx, "scrape", site("/b"))).URL == site("/b"), "cache lookup")
	usage := must(c.Usage(ctx, url.Values{"per_page": {"5"}}))
	for _, run := range (*usage)["runs"].([]interface{}) {
		if run := run.(map[string]interface{}); run["endpoint"] == "scrape" {
			check(t, must(c.RunResult(ctx, run["id"].(string))).Endpoint == "scrape", "run result")
			return
		}
	}
	t.Fatal("no scrape run in usage")
}

func TestErrors(t *testing.T) {
	main := client("main", env.URL, 0)
	cases := []struct {
		err    error
		target error
		status int
	}{
		{func() error { _, err := client("trawl_wrong", env.URL, 0).Usage(ctx, nil); return err }(), trawl.ErrUnauthorized, 401},
		{func() error {
			_, err := client("broke", env.URL, 0).Scrape(ctx, trawl.ScrapeRequest{URL: site("/a")})
			return err
		}(), trawl.ErrInsufficientCredits, 402},
		{func() error {
			_, err := client("lapsed", env.URL, 0).Scrape(ctx, trawl.ScrapeRequest{URL: site("/a")})
			return err
		}(), trawl.ErrForbidden, 403},
		{func() error {
			_, err := main.GetCrawl(ctx, "00000000-0000-4000-8000-000000000000", trawl.PageQuery{})
			return err
		}(), trawl.ErrNotFound, 404},
		{func() error {
			_, err := main.Scrape(ctx, trawl.ScrapeRequest{URL: "http://127.0.0.1:1/gone"})
			return err
		}(), trawl.ErrUnprocessable, 422},
	}
	for _, tc := range cases {
		var apiErr *trawl.Error
		check(t, errors.Is(tc.err, tc.target) && errors.As(tc.err, &apiErr) && apiErr.Status == tc.status && len(apiErr.Message) > 3, "want %d, got %v", tc.status, tc.err)
	}
	limited := client("limited", env.URL, -1)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func(i int) { defer wg.Done(); _, errs[i] = limited.Usage(ctx, nil) }(i)
	}
	wg.Wait()
	limitedSeen := false
	for _, err := range errs {
		limitedSeen = limitedSeen || errors.Is(err, trawl.ErrRateLimited)
	}
	check(t, limitedSeen, "no 429 among %v", errs)
}

func TestRetryAfter429(t *testing.T) {
	started := time.Now()
	page := must(client("main", env.FlakyURL, 0).Scrape(ctx, trawl.ScrapeRequest{URL: site("/a")}))
	check(t, strings.Contains(page.Markdown, "Page a") && time.Since(started) >= 900*time.Millisecond, "retried too soon: %s", time.Since(started))
	_, err := client("main", env.FlakyURL, -1).Health(ctx)
	var apiErr *trawl.Error
	check(t, errors.As(err, &apiErr) && apiErr.Status == 429 && apiErr.RetryAfter == time.Second, "no 429: %v", err)
}

func TestWebhookVerification(t *testing.T) {
	secret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Now().Unix()
	body := []byte(`{"type":"crawl.completed"}`)
	signature := must(trawl.SignWebhook(secret, "msg_1", now, body))
	headers := http.Header{}
	headers.Set("Webhook-Id", "msg_1")
	headers.Set("Webhook-Timestamp", strconv.FormatInt(now, 10))
	headers.Set("Webhook-Signature", "v1,bogus "+signature)
	noErr(t, trawl.VerifyWebhook(secret, body, headers, 0))
	check(t, errors.Is(trawl.VerifyWebhook(secret, append(body, ' '), headers, 0), trawl.ErrWebhookVerification), "tampered body accepted")
	headers.Set("Webhook-Timestamp", strconv.FormatInt(now-3600, 10))
	check(t, errors.Is(trawl.VerifyWebhook(secret, body, headers, 0), trawl.ErrWebhookVerification), "old timestamp accepted")
}
