package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// SearchBackend runs a web search. Search returns at most q.Count results,
// in the backend's order; it may apply q's domain lists itself, and
// FilterDomains applies them again, so a backend that cannot is still
// correct.
type SearchBackend interface {
	Search(ctx context.Context, q Query) ([]Result, error)
}

// SearchFunc adapts a function to SearchBackend.
type SearchFunc func(ctx context.Context, q Query) ([]Result, error)

// Search calls f.
func (f SearchFunc) Search(ctx context.Context, q Query) ([]Result, error) { return f(ctx, q) }

// Query is one search.
type Query struct {
	Text string
	// Allowed, when not empty, keeps only results from these domains (and
	// their subdomains); Blocked drops results from these.
	Allowed, Blocked []string
	// Count is how many results to ask for.
	Count int
}

// Result is one search hit.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
}

// DefaultSearchCount is how many results a search asks for.
const DefaultSearchCount = 10

// Environment variables that configure a backend when SearchConfig leaves
// it unset. Their values are secrets: the shell environment never carries
// them (jobs.EnvAllowed does not list them) and errors never show them.
const (
	EnvSearXNG = "SEARXNG_URL"
	EnvBrave   = "BRAVE_API_KEY"
	EnvTavily  = "TAVILY_API_KEY"
)

// SearchConfig chooses a backend. Backend is "searxng", "brave" or
// "tavily"; URL is SearXNG's base URL, or replaces Brave's or Tavily's
// endpoint; APIKey is Brave's or Tavily's key. Empty fields come from the
// environment: SEARXNG_URL, BRAVE_API_KEY, TAVILY_API_KEY (the first set,
// in that order, when Backend is empty).
type SearchConfig struct {
	Backend string `json:"backend,omitempty"`
	URL     string `json:"url,omitempty"`
	APIKey  string `json:"-"`
}

// ErrNoBackend is the error of a search with no backend configured.
var ErrNoBackend = errors.New("no web search backend is configured; set " + EnvSearXNG + " to a SearXNG instance with the JSON format enabled (e.g. http://localhost:8888), " + EnvBrave + " to a Brave Search API key, or " + EnvTavily + " to a Tavily API key, in the server's environment, or choose one under \"search\" in the config file")

// NewSearchBackend returns the backend cfg and the environment (getenv)
// choose, or nil and no error when neither chooses one.
func NewSearchBackend(cfg SearchConfig, getenv func(string) string) (SearchBackend, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	client := &http.Client{Timeout: DefaultTimeout}
	backend := strings.ToLower(cfg.Backend)
	if backend == "" {
		switch {
		case getenv(EnvSearXNG) != "":
			backend = "searxng"
		case getenv(EnvBrave) != "":
			backend = "brave"
		case getenv(EnvTavily) != "":
			backend = "tavily"
		case cfg.URL != "":
			backend = "searxng"
		default:
			return nil, nil
		}
	}
	key := func(env string) (string, error) {
		if cfg.APIKey != "" {
			return cfg.APIKey, nil
		}
		if k := getenv(env); k != "" {
			return k, nil
		}
		return "", fmt.Errorf("the %s search backend needs an API key: set %s in the server's environment", backend, env)
	}
	switch backend {
	case "searxng":
		base := cfg.URL
		if base == "" {
			base = getenv(EnvSearXNG)
		}
		if base == "" {
			return nil, fmt.Errorf("the searxng search backend needs the instance's URL: set %s or \"url\" under \"search\"", EnvSearXNG)
		}
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			// The value is not shown: it may carry credentials.
			return nil, fmt.Errorf("the SearXNG URL (%s or \"url\" under \"search\") is not an http or https URL such as http://localhost:8888", EnvSearXNG)
		}
		return &SearXNG{Base: u, Client: client}, nil
	case "brave":
		k, err := key(EnvBrave)
		if err != nil {
			return nil, err
		}
		return &Brave{Endpoint: or(cfg.URL, BraveEndpoint), Key: k, Client: client}, nil
	case "tavily":
		k, err := key(EnvTavily)
		if err != nil {
			return nil, err
		}
		return &Tavily{Endpoint: or(cfg.URL, TavilyEndpoint), Key: k, Client: client}, nil
	}
	return nil, fmt.Errorf("unknown search backend %q; use searxng, brave or tavily", cfg.Backend)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// SearXNG searches a SearXNG instance through its JSON API (the instance
// must list json under search.formats).
type SearXNG struct {
	Base   *url.URL
	Client *http.Client
}

// Search implements SearchBackend.
func (s *SearXNG) Search(ctx context.Context, q Query) ([]Result, error) {
	u := s.Base.JoinPath("search")
	v := url.Values{"q": {q.Text}, "format": {"json"}}
	u.RawQuery = v.Encode()
	var body struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	if err := doJSON(s.Client, req, "SearXNG", "", &body); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range body.Results {
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return out, nil
}

// BraveEndpoint is the Brave Search API's web search endpoint.
const BraveEndpoint = "https://api.search.brave.com/res/v1/web/search"

// Brave searches with the Brave Search API.
type Brave struct {
	Endpoint, Key string
	Client        *http.Client
}

// Search implements SearchBackend.
func (b *Brave) Search(ctx context.Context, q Query) ([]Result, error) {
	u, err := url.Parse(b.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("brave endpoint %q: %v", b.Endpoint, err)
	}
	v := url.Values{"q": {q.Text}, "count": {fmt.Sprint(min(max(q.Count, 1), 20))}}
	u.RawQuery = v.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", b.Key)
	var body struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := doJSON(b.Client, req, "Brave Search", b.Key, &body); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range body.Web.Results {
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: stripTags(r.Description)})
	}
	return out, nil
}

// TavilyEndpoint is Tavily's search endpoint.
const TavilyEndpoint = "https://api.tavily.com/search"

// Tavily searches with Tavily's API.
type Tavily struct {
	Endpoint, Key string
	Client        *http.Client
}

// Search implements SearchBackend.
func (t *Tavily) Search(ctx context.Context, q Query) ([]Result, error) {
	payload := map[string]any{"query": q.Text, "max_results": min(max(q.Count, 1), 20)}
	if len(q.Allowed) > 0 {
		payload["include_domains"] = q.Allowed
	}
	if len(q.Blocked) > 0 {
		payload["exclude_domains"] = q.Blocked
	}
	buf, _ := json.Marshal(payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint, bytes.NewReader(buf))
	if err != nil {
		return nil, fmt.Errorf("tavily endpoint %q: %v", t.Endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.Key)
	var body struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := doJSON(t.Client, req, "Tavily", t.Key, &body); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range body.Results {
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return out, nil
}

// doJSON sends req and decodes a JSON answer into v. Error texts never
// carry secret, even when the service echoes it.
func doJSON(c *http.Client, req *http.Request, service, secret string, v any) error {
	scrub := func(s string) string {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
		return s
	}
	resp, err := c.Do(req)
	if err != nil {
		return errors.New(scrub(fmt.Sprintf("%s: %v", service, err)))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, DefaultMaxBytes))
	if err != nil {
		return errors.New(scrub(fmt.Sprintf("%s: reading the answer: %v", service, err)))
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(data))
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		hint := ""
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			hint = " (check the API key)"
		}
		return errors.New(scrub(fmt.Sprintf("%s answered %d %s%s: %s", service, resp.StatusCode, http.StatusText(resp.StatusCode), hint, msg)))
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: the answer is not the JSON expected: %v", service, err)
	}
	return nil
}

// stripTags drops the <strong> marks Brave puts in descriptions.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Search runs q on b and keeps the results the domain lists let through,
// at most q.Count.
func Search(ctx context.Context, b SearchBackend, q Query) ([]Result, error) {
	if b == nil {
		return nil, ErrNoBackend
	}
	if q.Count <= 0 {
		q.Count = DefaultSearchCount
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	rs, err := b.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	rs = FilterDomains(rs, q.Allowed, q.Blocked)
	if len(rs) > q.Count {
		rs = rs[:q.Count]
	}
	return rs, nil
}

// FilterDomains keeps the results whose host is one of allowed or under one
// (when allowed is not empty) and is neither one of blocked nor under one.
// A result whose URL does not parse is dropped.
func FilterDomains(rs []Result, allowed, blocked []string) []Result {
	var out []Result
	for _, r := range rs {
		u, err := url.Parse(r.URL)
		if err != nil || u.Hostname() == "" {
			continue
		}
		host := strings.ToLower(u.Hostname())
		if len(allowed) > 0 && !underAny(host, allowed) {
			continue
		}
		if underAny(host, blocked) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// NormalizeDomain turns what a model may give as a domain
// ("https://www.Example.com/docs", "*.example.com") into a host name.
func NormalizeDomain(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if i := strings.Index(d, "://"); i >= 0 {
		d = d[i+3:]
	}
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		d = d[:i]
	}
	d = strings.TrimPrefix(d, "*.")
	d = strings.TrimPrefix(d, ".")
	return strings.TrimSuffix(d, ".")
}

func underAny(host string, domains []string) bool {
	host = strings.TrimSuffix(host, ".")
	bare := strings.TrimPrefix(host, "www.")
	for _, d := range domains {
		d = strings.TrimPrefix(NormalizeDomain(d), "www.")
		if d == "" {
			continue
		}
		if bare == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}
