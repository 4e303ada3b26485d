package trawl

// Paginated lists: one page as List, and Pager, which walks every item by following each
// answer's `next` path (the server's own link, so filters carry over).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// List is one page of a list endpoint; Items holds the list under its endpoint's key.
type List[T any] struct {
	Items   []T
	Total   int
	Limit   int
	Offset  int
	Page    int // the alias's view of Offset and Limit
	PerPage int
	Next    string // path of the next page; empty on the last
	Raw     map[string]json.RawMessage
	// fetchNext, when set, gets the next page instead of Next (cursor-paged lists).
	fetchNext func(context.Context) (*List[T], error)
}

func decodeList[T any](key string, raw map[string]json.RawMessage) (*List[T], error) {
	list := &List[T]{Raw: raw}
	for field, into := range map[string]interface{}{key: &list.Items, "limit": &list.Limit, "offset": &list.Offset, "page": &list.Page, "per_page": &list.PerPage, "total": &list.Total, "next": &list.Next} {
		if value, ok := raw[field]; ok {
			if err := json.Unmarshal(value, into); err != nil {
				return nil, err
			}
		}
	}
	return list, nil
}

func listOf[T any](c *Client, ctx context.Context, key, endpoint string, params []string, query url.Values) (*List[T], error) {
	var raw map[string]json.RawMessage
	if err := c.Call(ctx, endpoint, params, query, nil, &raw); err != nil {
		return nil, err
	}
	return decodeList[T](key, raw)
}

// Pager walks a list: for p.Next(ctx) { use(p.Item()) }; then check p.Err().
type Pager[T any] struct {
	client *Client
	key    string
	first  func(context.Context) (*List[T], error)
	page   *List[T]
	index  int
	item   T
	err    error
}

func newPager[T any](c *Client, key string, first func(context.Context) (*List[T], error)) *Pager[T] {
	return &Pager[T]{client: c, key: key, first: first}
}

func (p *Pager[T]) Next(ctx context.Context) bool {
	for p.err == nil {
		if p.page == nil {
			p.page, p.err = p.first(ctx)
			continue
		}
		if p.index < len(p.page.Items) {
			p.item = p.page.Items[p.index]
			p.index++
			return true
		}
		if p.page.fetchNext != nil {
			p.page, p.err = p.page.fetchNext(ctx)
			p.index = 0
			continue
		}
		if p.page.Next == "" {
			return false
		}
		next, err := url.Parse(p.page.Next)
		if err != nil {
			p.err = err
			return false
		}
		var raw map[string]json.RawMessage
		if p.err = p.client.do(ctx, http.MethodGet, next.Path, next.Query(), nil, &raw); p.err == nil {
			p.page, p.err = decodeList[T](p.key, raw)
			p.index = 0
		}
	}
	return false
}

func (p *Pager[T]) Item() T    { return p.item }
func (p *Pager[T]) Err() error { return p.err }
