package trawl

// Request and response shapes of the /v1 API, written against /openapi.json: the common fields
// are typed; Object carries the rest (and whole answers whose shape is open).

import (
	"encoding/json"
	"time"
)

// Object is a JSON object as decoded.
type Object = map[string]interface{}

// ScrapeOptions are the options shared by scrape, batch and a crawl's scrape_options.
type ScrapeOptions struct {
	Formats          []string          `json:"formats,omitempty"`
	IncludeSelectors []string          `json:"include_selectors,omitempty"`
	ExcludeSelectors []string          `json:"exclude_selectors,omitempty"`
	NoCache          bool              `json:"no_cache,omitempty"`
	Timeout          int               `json:"timeout,omitempty"`
	MaxAgeMs         int               `json:"max_age_ms,omitempty"`
	Headers          map[string]string `json:"headers,omitempty"`
	Actions          []Object          `json:"actions,omitempty"`
	Mobile           bool              `json:"mobile,omitempty"`
	Render           interface{}       `json:"render,omitempty"`
	OnlyMainContent  *bool             `json:"only_main_content,omitempty"`
}

type ScrapeRequest struct {
	URL string `json:"url"`
	ScrapeOptions
}

// Link is one link of a page.
type Link struct {
	Text string `json:"text"`
	Href string `json:"href"`
}

type ScrapeResult struct {
	URL        string          `json:"url"`
	Markdown   string          `json:"markdown"`
	RawHTML    string          `json:"rawHtml"`
	Text       string          `json:"text"`
	Links      []Link          `json:"links"`
	Metadata   Object          `json:"metadata"`
	Screenshot string          `json:"screenshot"`
	Extract    json.RawMessage `json:"extract"`
	Warnings   []interface{}   `json:"warnings"`
}

type CrawlRequest struct {
	URL                string         `json:"url"`
	MaxDepth           int            `json:"max_depth,omitempty"`
	MaxPages           int            `json:"max_pages,omitempty"`
	AllowSubdomains    bool           `json:"allow_subdomains,omitempty"`
	AllowExternalLinks bool           `json:"allow_external_links,omitempty"`
	IncludePaths       []string       `json:"include_paths,omitempty"`
	ExcludePaths       []string       `json:"exclude_paths,omitempty"`
	WebhookURL         string         `json:"webhook_url,omitempty"`
	ScrapeOptions      *ScrapeOptions `json:"scrape_options,omitempty"`
}

type BatchRequest struct {
	URLs       []string `json:"urls"`
	WebhookURL string   `json:"webhook_url,omitempty"`
	ScrapeOptions
}

type SearchRequest struct {
	Query      string   `json:"query"`
	NumResults int      `json:"num_results,omitempty"`
	Scrape     bool     `json:"scrape,omitempty"`
	Formats    []string `json:"formats,omitempty"`
	Country    string   `json:"country,omitempty"`
	Lang       string   `json:"lang,omitempty"`
}

type ExtractRequest struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt,omitempty"`
	Schema Object `json:"schema,omitempty"`
}

type ExtractResult struct {
	Data     json.RawMessage `json:"data"`
	Metadata Object          `json:"metadata"`
}

type SummarizeRequest struct {
	URL    string `json:"url"`
	Length string `json:"length,omitempty"`
	Mode   string `json:"mode,omitempty"`
}

type SummarizeResult struct {
	Summary string `json:"summary"`
	Method  string `json:"method"`
}

// URLRequest is the body of map, lead, brand and diff (Extra adds their other fields).
type URLRequest struct {
	URL   string
	Extra Object
}

func (r URLRequest) MarshalJSON() ([]byte, error) {
	body := Object{"url": r.URL}
	for k, v := range r.Extra {
		body[k] = v
	}
	return json.Marshal(body)
}

type LeadBatchRequest struct {
	URLs       []string `json:"urls"`
	WebhookURL string   `json:"webhook_url,omitempty"`
	NoCache    bool     `json:"no_cache,omitempty"`
}

type RunStarted struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

type CrawlPage struct {
	URL      string `json:"url"`
	Status   string `json:"status"`
	Markdown string `json:"markdown"`
	Error    string `json:"error"`
	Metadata Object `json:"metadata"`
}

type RunStatus struct {
	ID          string      `json:"id"`
	Status      string      `json:"status"`
	URL         string      `json:"url"`
	Total       int         `json:"total"`
	Completed   int         `json:"completed"`
	Failed      int         `json:"failed"`
	CreatedAt   string      `json:"created_at"`
	CompletedAt *string     `json:"completed_at"`
	ExpiresAt   *string     `json:"expires_at"` // when the run is deleted (404 from then on); nil: kept forever
	Error       *string     `json:"error"`
	Data        []CrawlPage `json:"data"`
	Next        string      `json:"next"`
}

type LeadBatch struct {
	ID        string   `json:"id"`
	Status    string   `json:"status"`
	Total     int      `json:"total"`
	Completed int      `json:"completed"`
	Failed    int      `json:"failed"`
	Data      []Object `json:"data"`
}

type WebhookRequest struct {
	URL    string   `json:"url,omitempty"`
	Events []string `json:"events,omitempty"`
	Active *bool    `json:"active,omitempty"`
}

type Webhook struct {
	ID     string   `json:"id"`
	URL    string   `json:"url"`
	Events []string `json:"events"`
	Active bool     `json:"active"`
	Secret string   `json:"secret"`
}

// WatchRequest creates or patches a watch; empty fields are left out (the server's defaults on create,
// unchanged on update).
type WatchRequest struct {
	URL              string           `json:"url,omitempty"`
	Name             string           `json:"name,omitempty"`
	IntervalMinutes  int              `json:"interval_minutes,omitempty"`
	WebhookURL       string           `json:"webhook_url,omitempty"`
	IncludeSelectors []string         `json:"include_selectors,omitempty"`
	IgnoreSelectors  []string         `json:"ignore_selectors,omitempty"`
	IgnoreText       []string         `json:"ignore_text,omitempty"`
	IgnorePatterns   []string         `json:"ignore_patterns,omitempty"` // clock, relative_time, counters, tokens
	TriggerText      []string         `json:"trigger_text,omitempty"`
	BlockText        []string         `json:"block_text,omitempty"`
	OnlyNewLines     *bool            `json:"only_new_lines,omitempty"`
	Changes          string           `json:"changes,omitempty"` // any, added, removed
	Conditions       []WatchCondition `json:"conditions,omitempty"`
	Restock          *bool            `json:"restock,omitempty"`
	Tags             []string         `json:"tags,omitempty"`
	Notify           []string         `json:"notify,omitempty"`
	Active           *bool            `json:"active,omitempty"`
}

// WatchCondition: the number read at Selector notifies when below, above, or moved by ChangePercent.
type WatchCondition struct {
	Selector      string   `json:"selector"`
	Below         *float64 `json:"below,omitempty"`
	Above         *float64 `json:"above,omitempty"`
	ChangePercent *float64 `json:"change_percent,omitempty"`
}

// NotifyStatus is the last delivery attempt to one notify target (Outcome delivered, retrying or failed).
type NotifyStatus struct {
	Target  string    `json:"target"`
	OK      bool      `json:"ok"`
	Outcome string    `json:"outcome"`
	Error   *string   `json:"error"`
	Attempt int       `json:"attempt"`
	At      time.Time `json:"at"`
}

type Watch struct {
	ID               string           `json:"id"`
	URL              string           `json:"url"`
	Name             *string          `json:"name"`
	IntervalMinutes  int              `json:"interval_minutes"`
	WebhookURL       *string          `json:"webhook_url"`
	Active           bool             `json:"active"`
	State            string           `json:"state"` // new, changed, unchanged, error, paused
	LastCheckedAt    *time.Time       `json:"last_checked_at"`
	LastChangedAt    *time.Time       `json:"last_changed_at"`
	NextCheckAt      *time.Time       `json:"next_check_at"`
	LastError        *string          `json:"last_error"`
	IncludeSelectors []string         `json:"include_selectors"`
	IgnoreSelectors  []string         `json:"ignore_selectors"`
	IgnoreText       []string         `json:"ignore_text"`
	IgnorePatterns   []string         `json:"ignore_patterns"`
	TriggerText      []string         `json:"trigger_text"`
	BlockText        []string         `json:"block_text"`
	OnlyNewLines     bool             `json:"only_new_lines"`
	Changes          string           `json:"changes"`
	Conditions       []WatchCondition `json:"conditions"`
	Restock          bool             `json:"restock"`
	Tags             []string         `json:"tags"`
	Notify           []string         `json:"notify"`
	NotifyStatus     []NotifyStatus   `json:"notify_status"`
	Snapshots        []WatchSnapshot  `json:"snapshots"`
	CreatedAt        time.Time        `json:"created_at"`
}

// WatchSnapshot is one check: Notified and Reason say whether and why it notified, Excerpt what changed.
type WatchSnapshot struct {
	ID          string     `json:"id"`
	Status      string     `json:"status"` // initial, same, changed
	Notified    bool       `json:"notified"`
	Reason      *string    `json:"reason"`
	Excerpt     *string    `json:"excerpt"`
	Title       string     `json:"title"`
	DiffSummary *string    `json:"diff_summary"`
	CheckedAt   *time.Time `json:"checked_at"`
}

type StoredResult struct {
	ID       string          `json:"id"`
	Endpoint string          `json:"endpoint"`
	URL      string          `json:"url"`
	Data     json.RawMessage `json:"data"`
}

// PageQuery selects one slice of a list: Limit and Offset (the server's rule).
type PageQuery struct {
	Limit  int // items per answer, 1 to 100; 0 takes the server's default (20)
	Offset int // items to skip
	// Page and PerPage are the older alias of Offset and Limit (offset = (page-1)*per_page); the
	// server refuses a request that sets both styles.
	Page    int
	PerPage int
}

// StreamEvent is one Server-Sent Event of a crawl or batch stream; ID is 0 when it had none.
type StreamEvent struct {
	ID    int64
	Event string
	Data  json.RawMessage
}

type EndpointsRequest struct {
	URL               string `json:"url"`
	IncludeThirdParty bool   `json:"include_third_party,omitempty"`
	MaxBundles        int    `json:"max_bundles,omitempty"`
}

// FoundEndpoint is one API endpoint found in a page's JavaScript.
type FoundEndpoint struct {
	Value      string `json:"value"`
	Kind       string `json:"kind"`
	FirstParty bool   `json:"first_party"`
	Source     string `json:"source"`
}

type EndpointsResult struct {
	URL            string          `json:"url"`
	BundlesScanned int             `json:"bundles_scanned"`
	EndpointCount  int             `json:"endpoint_count"`
	Endpoints      []FoundEndpoint `json:"endpoints"`
	Hosts          []interface{}   `json:"hosts"`
	Truncated      bool            `json:"truncated"`
}

type SocialMonitorRequest struct {
	Kind            string `json:"kind,omitempty"` // profile, search, list or replies
	Target          string `json:"target,omitempty"`
	Name            string `json:"name,omitempty"`
	IntervalMinutes int    `json:"interval_minutes,omitempty"`
	WebhookURL      string `json:"webhook_url,omitempty"`
	IncludeRetweets *bool  `json:"include_retweets,omitempty"`
	IncludeReplies  *bool  `json:"include_replies,omitempty"`
	IncludeQuotes   *bool  `json:"include_quotes,omitempty"`
	MinFaves        int    `json:"min_faves,omitempty"`
	Keyword         string `json:"keyword,omitempty"`
	Lang            string `json:"lang,omitempty"`
	Active          *bool  `json:"active,omitempty"`
}

type SocialMonitor struct {
	ID              string  `json:"id"`
	Kind            string  `json:"kind"`
	Target          string  `json:"target"`
	Name            *string `json:"name"`
	IntervalMinutes int     `json:"interval_minutes"`
	WebhookURL      *string `json:"webhook_url"`
	Active          bool    `json:"active"`
}

type AudienceRequest struct {
	Handle    string `json:"handle,omitempty"`
	UserID    string `json:"user_id,omitempty"`
	Direction string `json:"direction,omitempty"` // followers (default) or following
	Cursor    string `json:"cursor,omitempty"`
	MaxPages  int    `json:"max_pages,omitempty"`
}

type AudienceUser struct {
	ID         string `json:"id"`
	ScreenName string `json:"screen_name"`
	Name       string `json:"name"`
	Followers  int    `json:"followers"`
}

type AudiencePage struct {
	UserID         string         `json:"user_id"`
	Direction      string         `json:"direction"`
	Count          int            `json:"count"`
	Users          []AudienceUser `json:"users"`
	NextCursor     *string        `json:"next_cursor"`
	PagesFetched   int            `json:"pages_fetched"`
	CreditsCharged int            `json:"credits_charged"`
}
