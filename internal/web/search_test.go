package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

var hits = []Result{
	{Title: "Go", URL: "https://go.dev/doc/", Snippet: "The Go documentation"},
	{Title: "Blog", URL: "https://blog.golang.org/x", Snippet: "A post"},
	{Title: "Pkg", URL: "https://pkg.go.dev/net/http", Snippet: "Package http"},
	{Title: "Spam", URL: "https://www.spam.example/y", Snippet: "buy"},
}

func TestSearXNG(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/searx/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "go http" {
			http.Error(w, "bad request "+r.URL.String(), http.StatusBadRequest)
			return
		}
		var rs []map[string]string
		for _, h := range hits {
			rs = append(rs, map[string]string{"title": h.Title, "url": h.URL, "content": h.Snippet, "engine": "x"})
		}
		json.NewEncoder(w).Encode(map[string]any{"query": "go http", "results": rs})
	}))
	defer srv.Close()
	b, err := NewSearchBackend(SearchConfig{}, env{EnvSearXNG: srv.URL + "/searx"}.get)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Search(context.Background(), b, Query{Text: "go http", Blocked: []string{"spam.example"}})
	if err != nil || !reflect.DeepEqual(got, hits[:3]) {
		t.Fatalf("%+v, %v", got, err)
	}
}

func TestBrave(t *testing.T) {
	const key = "brave-secret-123"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != key {
			http.Error(w, `{"error":"bad token `+r.Header.Get("X-Subscription-Token")+`"}`, http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("q") != "go" || r.URL.Query().Get("count") != "10" {
			http.Error(w, "bad query", http.StatusBadRequest)
			return
		}
		var rs []map[string]string
		for _, h := range hits {
			rs = append(rs, map[string]string{"title": h.Title, "url": h.URL, "description": "<strong>" + h.Snippet + "</strong>"})
		}
		json.NewEncoder(w).Encode(map[string]any{"type": "search", "web": map[string]any{"results": rs}})
	}))
	defer srv.Close()
	b, err := NewSearchBackend(SearchConfig{URL: srv.URL, Backend: "brave"}, env{EnvBrave: key}.get)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Search(context.Background(), b, Query{Text: "go", Allowed: []string{"go.dev"}})
	if err != nil || !reflect.DeepEqual(got, []Result{hits[0], hits[2]}) {
		t.Fatalf("%+v, %v", got, err)
	}
	// A wrong key: the error says so and never shows the key, even when
	// the service echoes it.
	b, _ = NewSearchBackend(SearchConfig{URL: srv.URL, Backend: "brave"}, env{EnvBrave: "wrong-key-456"}.get)
	_, err = Search(context.Background(), b, Query{Text: "go"})
	if err == nil || strings.Contains(err.Error(), "wrong-key-456") || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "check the API key") {
		t.Fatalf("wrong key: %v", err)
	}
}

func TestTavily(t *testing.T) {
	const key = "tvly-secret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query          string   `json:"query"`
			MaxResults     int      `json:"max_results"`
			ExcludeDomains []string `json:"exclude_domains"`
		}
		if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer "+key || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var rs []map[string]any
		for _, h := range hits {
			if len(req.ExcludeDomains) > 0 && strings.Contains(h.URL, req.ExcludeDomains[0]) {
				continue
			}
			rs = append(rs, map[string]any{"title": h.Title, "url": h.URL, "content": h.Snippet, "score": 0.5})
		}
		json.NewEncoder(w).Encode(map[string]any{"query": req.Query, "results": rs})
	}))
	defer srv.Close()
	b, err := NewSearchBackend(SearchConfig{URL: srv.URL}, env{EnvTavily: key}.get)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*Tavily); !ok {
		t.Fatalf("backend %T", b)
	}
	got, err := Search(context.Background(), b, Query{Text: "go", Blocked: []string{"golang.org"}, Count: 2})
	if err != nil || !reflect.DeepEqual(got, []Result{hits[0], hits[2]}) {
		t.Fatalf("%+v, %v", got, err)
	}
}

type env map[string]string

func (e env) get(k string) string { return e[k] }

func TestNoBackend(t *testing.T) {
	b, err := NewSearchBackend(SearchConfig{}, env{}.get)
	if b != nil || err != nil {
		t.Fatalf("%v %v", b, err)
	}
	_, err = Search(context.Background(), b, Query{Text: "x"})
	if !errors.Is(err, ErrNoBackend) || !strings.Contains(err.Error(), EnvBrave) {
		t.Fatal(err)
	}
	for _, c := range []SearchConfig{{Backend: "bing"}, {Backend: "brave"}, {Backend: "searxng"}, {Backend: "searxng", URL: "ftp://x"}} {
		if _, err := NewSearchBackend(c, env{}.get); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestFilterDomains(t *testing.T) {
	cases := []struct {
		allowed, blocked []string
		want             []string
	}{
		{nil, nil, []string{"Go", "Blog", "Pkg", "Spam"}},
		{[]string{"go.dev"}, nil, []string{"Go", "Pkg"}},
		{[]string{"https://www.spam.example/path"}, nil, []string{"Spam"}},
		{nil, []string{"*.go.dev", "golang.org"}, []string{"Spam"}},
		{[]string{"dev"}, []string{"pkg.go.dev"}, []string{"Go"}},
	}
	for _, c := range cases {
		var got []string
		for _, r := range FilterDomains(hits, c.allowed, c.blocked) {
			got = append(got, r.Title)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("allowed %v blocked %v: %v, want %v", c.allowed, c.blocked, got, c.want)
		}
	}
	// A look-alike host is not under the domain.
	if rs := FilterDomains([]Result{{URL: "https://notgo.dev/"}}, []string{"go.dev"}, nil); len(rs) != 0 {
		t.Errorf("notgo.dev passed as go.dev: %v", rs)
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"https://example.com", "http://[::1]:80/", "ftp://x", "//x", "https://a@b/", "http://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseURL(s)
		if err != nil {
			return
		}
		if u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
			t.Fatalf("ParseURL(%q) accepted %v", s, u)
		}
		if _, err := ParseURL(u.String()); err != nil {
			t.Fatalf("ParseURL(%q) gave %v, which does not parse again: %v", s, u, err)
		}
	})
}

func FuzzFilterDomains(f *testing.F) {
	f.Add("https://docs.go.dev/x", "go.dev")
	f.Add("http://[::1]:80/", "*.example.com")
	f.Add("https://www.a.b/", "https://www.A.b/path")
	f.Fuzz(func(t *testing.T, u, domain string) {
		rs := []Result{{URL: u}}
		allowed := FilterDomains(rs, []string{domain}, nil)
		blocked := FilterDomains(rs, nil, []string{domain})
		// A result is kept by allowing a domain exactly when it is dropped
		// by blocking it (unless the domain is empty, which matches nothing,
		// or the URL has no host, which is always dropped).
		if NormalizeDomain(domain) != "" && strings.TrimPrefix(NormalizeDomain(domain), "www.") != "" && len(allowed)+len(blocked) > 1 {
			t.Fatalf("%q both allowed and not blocked by %q", u, domain)
		}
	})
}
