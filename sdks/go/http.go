// Package trawl is the Go client for Trawl's /v1 API (standard library only).
//
// This file is the transport under every call: base URL and key (or TRAWL_API_URL /
// TRAWL_API_KEY), a timeout per request, retries with exponential backoff on 429 (honouring
// Retry-After) for every call, since a refused request did no work, and on 5xx and network
// failures for idempotent ones only; and the typed error every failed call returns.
package trawl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Version is the Trawl release this SDK matches.
const Version = "0.1.0"

// Options configure a Client; zero values take the defaults.
type Options struct {
	BaseURL    string        // default TRAWL_API_URL, else http://127.0.0.1:3000
	APIKey     string        // default TRAWL_API_KEY
	Timeout    time.Duration // per request; default 60 s
	MaxRetries int           // retries after the first attempt; default 3, -1 for none
	Backoff    time.Duration // first backoff step, doubled per retry; default 500 ms
	HTTPClient *http.Client
}

// Client calls the Trawl API. Safe for concurrent use.
type Client struct {
	baseURL    string
	apiKey     string
	timeout    time.Duration
	maxRetries int
	backoff    time.Duration
	http       *http.Client
}

// New makes a client from options, filling the gaps from the environment and defaults.
func New(o Options) *Client {
	c := &Client{baseURL: o.BaseURL, apiKey: o.APIKey, timeout: o.Timeout, maxRetries: o.MaxRetries, backoff: o.Backoff, http: o.HTTPClient}
	if c.baseURL == "" {
		c.baseURL = os.Getenv("TRAWL_API_URL")
	}
	if c.baseURL == "" {
		c.baseURL = "http://127.0.0.1:3000"
	}
	c.baseURL = strings.TrimRight(c.baseURL, "/")
	if c.apiKey == "" {
		c.apiKey = os.Getenv("TRAWL_API_KEY")
	}
	if c.timeout == 0 {
		c.timeout = 60 * time.Second
	}
	if c.maxRetries == 0 {
		c.maxRetries = 3
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.backoff == 0 {
		c.backoff = 500 * time.Millisecond
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	return c
}

// Error is a refused call: the HTTP status and the body's `error` message.
type Error struct {
	Status     int
	Message    string
	Body       json.RawMessage
	RetryAfter time.Duration // from Retry-After, when the server said
}

func (e *Error) Error() string { return fmt.Sprintf("trawl: %d %s", e.Status, e.Message) }

// Is lets errors.Is(err, trawl.ErrNotFound) and the like match on the status.
func (e *Error) Is(target error) bool {
	s, ok := target.(statusError)
	return ok && int(s) == e.Status
}

type statusError int

func (s statusError) Error() string { return "trawl: HTTP " + strconv.Itoa(int(s)) }

// Statuses to match with errors.Is.
var (
	ErrBadRequest          error = statusError(400)
	ErrUnauthorized        error = statusError(401)
	ErrInsufficientCredits error = statusError(402)
	ErrForbidden           error = statusError(403)
	ErrNotFound            error = statusError(404)
	ErrConflict            error = statusError(409)
	ErrUnprocessable       error = statusError(422)
	ErrRateLimited         error = statusError(429)
)

func idempotent(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodPut || method == http.MethodDelete
}

func parseRetryAfter(value string) (time.Duration, bool) {
	if value == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
		return time.Duration(seconds * float64(time.Second)), true
	}
	if at, err := http.ParseTime(value); err == nil {
		if d := time.Until(at); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// open sends one call with retries and returns the successful response (the caller closes it).
// stream responses get no overall timeout: they stay open as long as the run goes on.
func (c *Client) open(ctx context.Context, method, path string, query url.Values, body interface{}, headers map[string]string, stream bool) (*http.Response, context.CancelFunc, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, nil, err
		}
	}
	target := c.baseURL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	for attempt := 0; ; attempt++ {
		callCtx, cancel := ctx, context.CancelFunc(func() {})
		if !stream {
			callCtx, cancel = context.WithTimeout(ctx, c.timeout)
		}
		req, err := http.NewRequestWithContext(callCtx, method, target, bytes.NewReader(payload))
		if err != nil {
			cancel()
			return nil, nil, err
		}
		req.Header.Set("User-Agent", "trawl-sdk-go/"+Version)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+c.apiKey)
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := c.http.Do(req)
		var wait time.Duration
		switch {
		case err != nil:
			cancel()
			if ctx.Err() != nil || !idempotent(method) || attempt >= c.maxRetries {
				return nil, nil, err
			}
			wait = c.step(attempt)
		case res.StatusCode < 300:
			return res, cancel, nil
		default:
			raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
			res.Body.Close()
			cancel()
			apiErr := &Error{Status: res.StatusCode, Message: "HTTP " + strconv.Itoa(res.StatusCode), Body: raw}
			var envelope struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(raw, &envelope) == nil && envelope.Error != "" {
				apiErr.Message = envelope.Error
			}
			after, told := parseRetryAfter(res.Header.Get("Retry-After"))
			apiErr.RetryAfter = after
			retriable := res.StatusCode == 429 || (res.StatusCode >= 500 && idempotent(method))
			if !retriable || attempt >= c.maxRetries {
				return nil, nil, apiErr
			}
			wait = after
			if !told {
				wait = c.step(attempt)
			}
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

func (c *Client) step(attempt int) time.Duration {
	return time.Duration(float64(c.backoff) * float64(int(1)<<attempt) * (0.75 + rand.Float64()/2))
}

// do sends a call and decodes the JSON answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out interface{}) error {
	res, cancel, err := c.open(ctx, method, path, query, body, nil, false)
	if err != nil {
		return err
	}
	defer cancel()
	defer res.Body.Close()
	if out == nil {
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
	return json.NewDecoder(res.Body).Decode(out)
}
