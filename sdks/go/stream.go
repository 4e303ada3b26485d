package trawl

// The crawl and batch event streams over Server-Sent Events: `page` events numbered by `id:`,
// then `end`. A dropped connection is resumed with Last-Event-ID after the last event seen.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// StreamOptions: LastEventID resumes after that event; MaxReconnects bounds attempts in a row
// that bring no event (default 5).
type StreamOptions struct {
	LastEventID   int64
	MaxReconnects int
}

// EventStream yields events: for s.Next() { use(s.Event()) }; then check s.Err(); Close when done early.
type EventStream struct {
	ctx      context.Context
	client   *Client
	path     string
	last     int64
	limit    int
	failures int
	body     io.ReadCloser
	cancel   context.CancelFunc
	reader   *bufio.Reader
	event    StreamEvent
	progress bool
	done     bool
	err      error
}

func (c *Client) StreamCrawl(ctx context.Context, id string, o StreamOptions) *EventStream {
	return c.stream(ctx, "GET /v1/crawl/{id}/stream", id, o)
}

func (c *Client) StreamBatch(ctx context.Context, id string, o StreamOptions) *EventStream {
	return c.stream(ctx, "GET /v1/batch/{id}/stream", id, o)
}

func (c *Client) stream(ctx context.Context, endpoint, id string, o StreamOptions) *EventStream {
	_, path := resolve(endpoint, id)
	if o.MaxReconnects == 0 {
		o.MaxReconnects = 5
	}
	return &EventStream{ctx: ctx, client: c, path: path, last: o.LastEventID, limit: o.MaxReconnects}
}

func (s *EventStream) Event() StreamEvent { return s.event }
func (s *EventStream) Err() error         { return s.err }

func (s *EventStream) Close() {
	if s.body != nil {
		s.body.Close()
		s.cancel()
		s.body = nil
	}
}

func (s *EventStream) Next() bool {
	for !s.done && s.err == nil {
		if s.body == nil && !s.connect() {
			return false
		}
		event, err := readEvent(s.reader)
		if err == nil {
			if event.ID > 0 {
				s.last = event.ID
			}
			s.event, s.progress = event, true
			s.done = event.Event == "end" || event.Event == "error"
			if s.done {
				s.Close()
			}
			return true
		}
		s.Close()
		if s.ctx.Err() != nil {
			s.err = s.ctx.Err()
			return false
		}
		if s.progress {
			s.failures = 0
		} else if s.failures++; s.failures > s.limit {
			s.err = fmt.Errorf("trawl: stream dropped %d times without an event: %w", s.failures, err)
			return false
		} else {
			time.Sleep(time.Duration(200<<s.failures) * time.Millisecond)
		}
	}
	return false
}

func (s *EventStream) connect() bool {
	headers := map[string]string{"Accept": "text/event-stream"}
	if s.last > 0 {
		headers["Last-Event-ID"] = strconv.FormatInt(s.last, 10)
	}
	res, cancel, err := s.client.open(s.ctx, "GET", s.path, nil, nil, headers, true)
	if err != nil {
		s.err = err
		return false
	}
	s.body, s.cancel, s.reader, s.progress = res.Body, cancel, bufio.NewReader(res.Body), false
	return true
}

// readEvent reads up to the next event with data; comments and `retry:` lines are skipped.
func readEvent(r *bufio.Reader) (StreamEvent, error) {
	event := StreamEvent{Event: "message"}
	var data []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return event, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(data) > 0 {
				event.Data = json.RawMessage(strings.Join(data, "\n"))
				if !json.Valid(event.Data) {
					quoted, _ := json.Marshal(string(event.Data))
					event.Data = quoted
				}
				return event, nil
			}
			event = StreamEvent{Event: "message"}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			if id, err := strconv.ParseInt(value, 10, 64); err == nil {
				event.ID = id
			}
		case "event":
			event.Event = value
		case "data":
			data = append(data, value)
		}
	}
}
