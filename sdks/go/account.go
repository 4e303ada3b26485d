package trawl

// The workspace's own account and API keys (managing keys needs an admin key), and the watch feed
// token, whose Atom feed a feed reader opens with the token alone.

import (
	"context"
	"io"
	"net/url"
	"time"
)

// Account is the workspace, its plan and balance, and the calling key. Plan, Status, Balance and
// RateLimitPerMinute are nil on a self-hosted server; Balance is nil for a member key too.
type Account struct {
	Workspace          struct{ ID, Name string }  `json:"workspace"`
	Mode               string                     `json:"mode"`
	Plan               *string                    `json:"plan"`
	Status             *string                    `json:"status"`
	Balance            *int                       `json:"balance"`
	RateLimitPerMinute *int                       `json:"rate_limit_per_minute"`
	Key                *struct{ ID, Role string } `json:"key"`
	Role               string                     `json:"role"`
}

// Key is a workspace key as listed: never the secret, only its last four characters (Suffix).
// Secret is set only in CreateKey's answer; Success only in RevokeKey's.
type Key struct {
	ID        string     `json:"id"`
	Name      *string    `json:"name"`
	Role      string     `json:"role"` // admin: manages keys and sees billing; member: calls the API only
	Suffix    *string    `json:"suffix"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at"`
	Current   bool       `json:"current"`
	Secret    string     `json:"key,omitempty"`
	Success   bool       `json:"success,omitempty"`
}

// KeyRequest names a new key; Role is "admin" (the server's default when empty) or "member".
type KeyRequest struct {
	Name string `json:"name,omitempty"`
	Role string `json:"role,omitempty"`
}

// FeedToken is CreateFeedToken's answer, the only one holding the token; FeedURL is the Atom
// feed's address with it.
type FeedToken struct {
	Token     string    `json:"token"`
	FeedURL   string    `json:"feed_url"`
	CreatedAt time.Time `json:"created_at"`
}

type FeedTokenStatus struct {
	Active    bool       `json:"active"`
	CreatedAt *time.Time `json:"created_at"`
}

func (c *Client) Account(ctx context.Context) (*Account, error) {
	return call[Account](c, ctx, "GET /v1/account", nil, nil, nil)
}
func (c *Client) ListKeys(ctx context.Context, q PageQuery) (*List[Key], error) {
	return listOf[Key](c, ctx, "keys", "GET /v1/keys", nil, pageQuery(q))
}
func (c *Client) IterKeys(q PageQuery) *Pager[Key] {
	return newPager(c, "keys", func(ctx context.Context) (*List[Key], error) { return c.ListKeys(ctx, q) })
}

// CreateKey makes a key; its Secret is in this answer only.
func (c *Client) CreateKey(ctx context.Context, r KeyRequest) (*Key, error) {
	return call[Key](c, ctx, "POST /v1/keys", nil, nil, r)
}

// RenameKey sets a key's name; nil clears it.
func (c *Client) RenameKey(ctx context.Context, id string, name *string) (*Key, error) {
	return call[Key](c, ctx, "PATCH /v1/keys/{id}", []string{id}, nil, map[string]*string{"name": name})
}

// RevokeKey revokes a key: the next request with it is a 401. The answer is the revoked key.
func (c *Client) RevokeKey(ctx context.Context, id string) (*Key, error) {
	return call[Key](c, ctx, "DELETE /v1/keys/{id}", []string{id}, nil, nil)
}

// CreateFeedToken creates or rotates the feed token: the old feed URL stops working at once.
func (c *Client) CreateFeedToken(ctx context.Context) (*FeedToken, error) {
	return call[FeedToken](c, ctx, "POST /v1/watch/feed-token", nil, nil, nil)
}
func (c *Client) GetFeedToken(ctx context.Context) (*FeedTokenStatus, error) {
	return call[FeedTokenStatus](c, ctx, "GET /v1/watch/feed-token", nil, nil, nil)
}
func (c *Client) RevokeFeedToken(ctx context.Context) error {
	return c.Call(ctx, "DELETE /v1/watch/feed-token", nil, nil, nil, nil)
}

// WatchFeed is the Atom XML of the workspace's notified changes, opened by the feed token alone
// (as a feed reader opens FeedURL); at most 8 MiB is read.
func (c *Client) WatchFeed(ctx context.Context, token string) (string, error) {
	method, path := resolve("GET /v1/watch/feed.atom")
	res, cancel, err := c.open(ctx, method, path, url.Values{"token": {token}}, nil, map[string]string{"Accept": "application/atom+xml"}, false)
	if err != nil {
		return "", err
	}
	defer cancel()
	defer res.Body.Close()
	xml, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	return string(xml), err
}
