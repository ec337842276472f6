// Package web is the engine of the web tools: fetching a page safely and
// turning it into markdown, and searching through a configured backend.
//
// A Fetcher refuses, by default, every connection to a loopback, private,
// link-local, multicast, unspecified or reserved address, judged on the
// address it connects to (so a name that rebinds to 127.0.0.1 is refused
// too); it follows a redirect only within the same host and reports one to
// another host; it reads at most a bound of bytes within a deadline and
// caches what it fetched. It promises nothing about what a page says: the
// content is the server's, and callers treat it as untrusted text.
package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// Defaults of FetchOptions.
const (
	DefaultMaxBytes     = 10 << 20
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 10
	DefaultCacheTTL     = 15 * time.Minute
	DefaultCacheBytes   = 50 << 20
	// MaxURLLength is the longest URL a fetch accepts, as Claude Code.
	MaxURLLength = 2000
)

// FetchOptions configure a Fetcher; a zero field is its default.
type FetchOptions struct {
	// AllowHosts are host names, IP addresses and CIDR prefixes a fetch
	// may reach even when they are local (for local development).
	AllowHosts []string
	// UserAgent is sent with every request.
	UserAgent string
	// MaxBytes bounds the body read; default 10 MiB.
	MaxBytes int64
	// Timeout bounds a whole fetch, redirects included; default 30 s.
	Timeout time.Duration
	// MaxRedirects bounds same-host redirects followed; default 10.
	MaxRedirects int
	// CacheTTL is how long a fetched page is served from the cache;
	// default 15 minutes. CacheBytes bounds the cache's content; default
	// 50 MiB.
	CacheTTL   time.Duration
	CacheBytes int64
	// Resolver looks host names up; default the system's.
	Resolver Resolver
	// TLS configures TLS (tests trust their own certificate with it).
	TLS *tls.Config
	// Now is the cache's clock; default time.Now.
	Now func() time.Time
}

// Page is a fetched page, or a redirect to another host.
type Page struct {
	// URL is the address fetched (after the https upgrade); FinalURL
	// where the content came from after same-host redirects.
	URL, FinalURL string
	// Status and StatusText are the final response's.
	Status     int
	StatusText string
	// ContentType is the response's media type, parameters dropped.
	ContentType string
	// Bytes is the size of the body read.
	Bytes int
	// Content is the body as markdown (HTML) or as it came (text, JSON).
	Content string
	// Redirect is set, and the rest empty, when the server sent the
	// request to another host.
	Redirect *Redirect
	// Cached reports whether the page came from the cache.
	Cached bool
}

// Redirect is a redirect a fetch did not follow.
type Redirect struct {
	From, To string
	Status   int
}

// StatusText is the redirect status's name as Claude Code words it.
func (r *Redirect) StatusText() string {
	switch r.Status {
	case http.StatusMovedPermanently:
		return "Moved Permanently"
	case http.StatusPermanentRedirect:
		return "Permanent Redirect"
	case http.StatusTemporaryRedirect:
		return "Temporary Redirect"
	}
	return "Found"
}

// URLError is a URL refused before anything was sent.
type URLError struct {
	URL, Reason string
	// Malformed reports that the text is not a URL at all (it does not
	// parse, or lacks a scheme or host), as opposed to a URL a fetch
	// refuses.
	Malformed bool
}

func (e *URLError) Error() string { return fmt.Sprintf("invalid URL %q: %s", e.URL, e.Reason) }

// StatusError is a response with an error status.
type StatusError struct {
	URL    string
	Status int
	Text   string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s answered %d %s", e.URL, e.Status, e.Text)
}

// TypeError is a response whose content is not text.
type TypeError struct {
	URL, ContentType string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("%s is %s, which is not text, HTML or JSON; only text pages can be fetched", e.URL, e.ContentType)
}

// TooLargeError is a body over the bound.
type TooLargeError struct {
	URL   string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the most a fetch reads", e.URL, e.Limit)
}

// TimeoutError is a fetch that ran out of time.
type TimeoutError struct {
	URL     string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("fetching %s took longer than %s", e.URL, e.Timeout)
}

// ParseURL checks raw and returns it as a fetch sends it: http and https
// only, an http URL upgraded to https, a host, no credentials, at most
// MaxURLLength characters.
func ParseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, &URLError{raw, "it is empty; give a full URL such as https://example.com/docs", true}
	}
	if len(raw) > MaxURLLength {
		return nil, &URLError{URL: Cut(raw, 60) + "…", Reason: fmt.Sprintf("it is %d characters long, over the limit of %d", len(raw), MaxURLLength)}
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, &URLError{raw, fmt.Sprintf("it does not parse (%v); give a full URL such as https://example.com/docs", err), true}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		u.Scheme = "https"
	case "":
		return nil, &URLError{raw, "it has no scheme; give a full URL such as https://" + strings.TrimPrefix(raw, "//"), true}
	default:
		return nil, &URLError{URL: raw, Reason: fmt.Sprintf("the scheme %q is not supported; only http and https URLs can be fetched", u.Scheme)}
	}
	u.Scheme = "https"
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, &URLError{raw, "it names no host; give a full URL such as https://example.com/docs", true}
	}
	if u.User != nil {
		return nil, &URLError{URL: raw, Reason: "it carries a user name or password; credentials in URLs are not sent"}
	}
	if p := u.Port(); p != "" {
		if n, err := parsePort(p); err != nil || n == 0 {
			return nil, &URLError{URL: raw, Reason: fmt.Sprintf("the port %q is not a number from 1 to 65535", p)}
		}
	}
	u.Fragment = ""
	return u, nil
}

func parsePort(p string) (int, error) {
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, errors.New("too large")
		}
	}
	return n, nil
}

// Host returns the lower-case host name of raw, or "" when raw is not a URL
// a fetch accepts. Permission rules such as WebFetch(domain:example.com)
// match it.
func Host(raw string) string {
	u, err := ParseURL(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
}

// Fetcher fetches pages. It is safe for concurrent use; its cache is its
// own.
type Fetcher struct {
	opts   FetchOptions
	client *http.Client
	cache  *cache
}

// NewFetcher returns a Fetcher; an allowed host that does not parse is an
// error.
func NewFetcher(opts FetchOptions) (*Fetcher, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = DefaultCacheTTL
	}
	if opts.CacheBytes <= 0 {
		opts.CacheBytes = DefaultCacheBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	g, err := newGuard(opts.AllowHosts, opts.Resolver)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{
		// No proxy from the environment: a proxy would connect on our
		// behalf, past the guard.
		Proxy:                 nil,
		DialContext:           g.DialContext,
		TLSClientConfig:       opts.TLS,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: opts.Timeout,
	}
	client := &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return &Fetcher{opts: opts, client: client, cache: newCache(opts.CacheBytes, opts.CacheTTL, opts.Now)}, nil
}

// Close releases idle connections.
func (f *Fetcher) Close() { f.client.CloseIdleConnections() }

// Fetch fetches raw: the page as markdown or text, or the redirect to
// another host it met. Errors are *URLError, *BlockedError (wrapped),
// *StatusError, *TypeError, *TooLargeError, *TimeoutError, or the network's.
func (f *Fetcher) Fetch(ctx context.Context, raw string) (*Page, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	key := u.String()
	if p, ok := f.cache.get(key); ok {
		p.Cached = true
		return p, nil
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	p, err := f.fetch(ctx, u)
	if err != nil {
		// The transport's header timeout is the same bound and may
		// fire first: a timeout either way, unless the caller's own
		// context ended.
		var ne net.Error
		if ctx.Err() == context.DeadlineExceeded && context.Cause(ctx) == context.DeadlineExceeded ||
			errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
			return nil, &TimeoutError{URL: key, Timeout: f.opts.Timeout}
		}
		return nil, err
	}
	if p.Redirect == nil {
		f.cache.put(key, p)
	}
	return p, nil
}

func (f *Fetcher) fetch(ctx context.Context, u *url.URL) (*Page, error) {
	start := u.String()
	cur := u
	for hops := 0; ; hops++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			return nil, &URLError{URL: cur.String(), Reason: err.Error()}
		}
		req.Header.Set("User-Agent", f.opts.UserAgent)
		req.Header.Set("Accept", "text/markdown, text/html, */*")
		resp, err := f.client.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			resp.Body.Close()
			loc := resp.Header.Get("Location")
			if loc == "" {
				return nil, fmt.Errorf("%s answered %d without a Location header", cur, resp.StatusCode)
			}
			next, err := cur.Parse(loc)
			if err != nil {
				return nil, fmt.Errorf("%s redirects to %q, which is not a URL: %v", cur, loc, err)
			}
			next.Fragment = ""
			if !sameHost(cur, next) {
				return &Page{URL: start, Redirect: &Redirect{From: cur.String(), To: next.String(), Status: resp.StatusCode}}, nil
			}
			if hops >= f.opts.MaxRedirects {
				return nil, fmt.Errorf("%s redirected more than %d times (last to %s); the server is likely in a redirect loop", start, f.opts.MaxRedirects, next)
			}
			cur = next
			continue
		}
		defer resp.Body.Close()
		return f.read(resp, start, cur.String())
	}
}

// sameHost is Claude Code's rule for following a redirect: same scheme,
// same port, no credentials, and the same host up to a leading "www.".
func sameHost(from, to *url.URL) bool {
	if from.Scheme != to.Scheme || from.Port() != to.Port() || to.User != nil {
		return false
	}
	h := func(u *url.URL) string { return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") }
	return h(from) == h(to)
}

func (f *Fetcher) read(resp *http.Response, start, final string) (*Page, error) {
	if resp.StatusCode >= 400 {
		return nil, &StatusError{URL: final, Status: resp.StatusCode, Text: http.StatusText(resp.StatusCode)}
	}
	if resp.ContentLength > f.opts.MaxBytes {
		return nil, &TooLargeError{URL: final, Limit: f.opts.MaxBytes}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.opts.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > f.opts.MaxBytes {
		return nil, &TooLargeError{URL: final, Limit: f.opts.MaxBytes}
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	p := &Page{URL: start, FinalURL: final, Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), ContentType: mt, Bytes: len(body)}
	text, err := decode(body, params["charset"])
	if err != nil {
		return nil, err
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		md, err := Markdown(text, final)
		if err != nil {
			return nil, fmt.Errorf("converting %s to markdown: %v", final, err)
		}
		p.Content = md
	case isText(mt):
		p.Content = text
	default:
		return nil, &TypeError{URL: final, ContentType: mt}
	}
	return p, nil
}

// isText reports whether a media type is passed through as it came.
func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"),
		mt == "application/json", strings.HasSuffix(mt, "+json"),
		mt == "application/xml", strings.HasSuffix(mt, "+xml"),
		mt == "application/javascript", mt == "application/ecmascript",
		mt == "application/x-ndjson", mt == "application/yaml", mt == "application/x-yaml",
		mt == "application/toml", mt == "application/x-sh":
		return true
	}
	return false
}

// Markdown converts an HTML document to markdown; base resolves relative
// links.
func Markdown(html, baseURL string) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
	md, err := conv.ConvertString(html, converter.WithDomain(baseURL))
	if err != nil {
		return "", err
	}
	return md, nil
}
