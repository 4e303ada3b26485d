package trawl

// Social monitors (an account, search, list or replies checked on a schedule) and the audience
// export, whose pages are chained by next_cursor rather than page numbers.

import (
	"context"
)

func (c *Client) CreateSocialMonitor(ctx context.Context, r SocialMonitorRequest) (*SocialMonitor, error) {
	return call[SocialMonitor](c, ctx, "POST /v1/social/monitors", nil, nil, r)
}

// ListSocialMonitors lists one page of monitors; limit and offset 0 take the server's defaults
// (SocialMonitorsPage has the total and the next link; IterSocialMonitors walks them all).
func (c *Client) ListSocialMonitors(ctx context.Context, limit, offset int) ([]SocialMonitor, error) {
	list, err := c.SocialMonitorsPage(ctx, PageQuery{Limit: limit, Offset: offset})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// SocialMonitorsPage is one page of monitors with its total and next link.
func (c *Client) SocialMonitorsPage(ctx context.Context, q PageQuery) (*List[SocialMonitor], error) {
	return listOf[SocialMonitor](c, ctx, "monitors", "GET /v1/social/monitors", nil, pageQuery(q))
}

// IterSocialMonitors walks every monitor of the workspace.
func (c *Client) IterSocialMonitors(q PageQuery) *Pager[SocialMonitor] {
	return newPager(c, "monitors", func(ctx context.Context) (*List[SocialMonitor], error) { return c.SocialMonitorsPage(ctx, q) })
}
func (c *Client) GetSocialMonitor(ctx context.Context, id string) (*SocialMonitor, error) {
	return call[SocialMonitor](c, ctx, "GET /v1/social/monitors/{id}", []string{id}, nil, nil)
}
func (c *Client) UpdateSocialMonitor(ctx context.Context, id string, r SocialMonitorRequest) error {
	return c.Call(ctx, "PATCH /v1/social/monitors/{id}", []string{id}, nil, r, nil)
}
func (c *Client) DeleteSocialMonitor(ctx context.Context, id string) error {
	return c.Call(ctx, "DELETE /v1/social/monitors/{id}", []string{id}, nil, nil, nil)
}
func (c *Client) CheckSocialMonitor(ctx context.Context, id string) (*Object, error) {
	return call[Object](c, ctx, "POST /v1/social/monitors/{id}/check", []string{id}, nil, nil)
}
func (c *Client) Audience(ctx context.Context, r AudienceRequest) (*AudiencePage, error) {
	return call[AudiencePage](c, ctx, "POST /v1/social/audience", nil, nil, r)
}

// IterAudience walks every follower (or followed account), following next_cursor.
func (c *Client) IterAudience(r AudienceRequest) *Pager[AudienceUser] {
	return &Pager[AudienceUser]{client: c, first: func(ctx context.Context) (*List[AudienceUser], error) {
		page, err := c.Audience(ctx, r)
		if err != nil {
			return nil, err
		}
		return audienceList(c, r, page), nil
	}}
}

// audienceList presents an audience page as a List whose fetchNext asks for the cursor's page.
func audienceList(c *Client, r AudienceRequest, page *AudiencePage) *List[AudienceUser] {
	list := &List[AudienceUser]{Items: page.Users, Total: page.Count}
	if page.NextCursor != nil && *page.NextCursor != "" {
		next := AudienceRequest{UserID: page.UserID, Direction: r.Direction, Cursor: *page.NextCursor, MaxPages: r.MaxPages}
		list.fetchNext = func(ctx context.Context) (*List[AudienceUser], error) {
			more, err := c.Audience(ctx, next)
			if err != nil {
				return nil, err
			}
			return audienceList(c, next, more), nil
		}
	}
	return list
}
