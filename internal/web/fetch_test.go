package web

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// resolverMap is a Resolver that answers from a table: a test points any
// name at any address, as a DNS server under an attacker's control would.
type resolverMap map[string]string

func (m resolverMap) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	a, ok := m[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
}

// server starts a TLS test server (fetches are https only) and returns a
// fetcher that trusts it, resolves example.com (the name its certificate
// carries) to it, and may reach it.
func server(t *testing.T, h http.Handler, opts FetchOptions) (*httptest.Server, *Fetcher, string) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	opts.TLS = srv.Client().Transport.(*http.Transport).TLSClientConfig
	if opts.Resolver == nil {
		opts.Resolver = resolverMap{"example.com": "127.0.0.1", "www.example.com": "127.0.0.1", "rebind.example.com": "127.0.0.1"}
	}
	if opts.AllowHosts == nil {
		opts.AllowHosts = []string{"example.com"}
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "Hands/test"
	}
	f, err := NewFetcher(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	return srv, f, "https://example.com:" + port
}

func TestParseURL(t *testing.T) {
	good := map[string]string{
		"http://example.com/a?b=1#frag": "https://example.com/a?b=1",
		"https://EXAMPLE.com:8443/x":    "https://EXAMPLE.com:8443/x",
		"HTTP://example.com":            "https://example.com",
	}
	for in, want := range good {
		u, err := ParseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	bad := map[string]string{
		"":                                     "empty",
		"example.com/docs":                     "no scheme",
		"ftp://example.com/file":               `scheme "ftp" is not supported`,
		"file:///etc/passwd":                   `scheme "file"`,
		"javascript:alert(1)":                  `scheme "javascript"`,
		"https://user:pw@example.com/":         "user name or password",
		"https:///path":                        "names no host",
		"https://example.com:99999/":           "port",
		"http://[::1":                          "does not parse",
		"https://" + strings.Repeat("a", 2001): "characters long",
	}
	for in, want := range bad {
		_, err := ParseURL(in)
		var ue *URLError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseURL(%q) = %v; want a URLError saying %q", in, err, want)
		}
	}
	if h := Host("http://Docs.Example.COM./x"); h != "docs.example.com" {
		t.Errorf("Host = %q", h)
	}
	if h := Host("not a url"); h != "" {
		t.Errorf("Host of a bad URL = %q", h)
	}
}

func TestBlocked(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "127.8.9.10", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1",
		"169.254.169.254", "fe80::1", "fd00:ec2::254", "224.0.0.1", "ff02::1", "0.0.0.0", "::",
		"100.100.100.200", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "255.255.255.255", "198.18.0.1"} {
		if !Blocked(netip.MustParseAddr(a)) {
			t.Errorf("%s is not blocked", a)
		}
	}
	for _, a := range []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "8.8.8.8"} {
		if Blocked(netip.MustParseAddr(a)) {
			t.Errorf("%s is blocked", a)
		}
	}
}

// TestRebindingRefused: a public-looking name that resolves to 127.0.0.1
// is refused at connect time, and the server never sees a request; with
// the name allowed, the same fetch goes through.
func TestRebindingRefused(t *testing.T) {
	var hits atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "secret")
	})
	_, f, base := server(t, h, FetchOptions{AllowHosts: []string{}})
	for _, u := range []string{base, strings.Replace(base, "example.com", "rebind.example.com", 1), strings.Replace(base, "example.com", "127.0.0.1", 1)} {
		_, err := f.Fetch(context.Background(), u)
		var be *BlockedError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), "--allow-hosts") {
			t.Errorf("fetch %s: %v; want a BlockedError naming --allow-hosts", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server saw %d requests", n)
	}
	_, f, base = server(t, h, FetchOptions{AllowHosts: []string{"example.com"}})
	p, err := f.Fetch(context.Background(), base)
	if err != nil || p.Content != "secret" {
		t.Fatalf("allowed fetch: %+v, %v", p, err)
	}
	_, f, _ = server(t, h, FetchOptions{AllowHosts: []string{"127.0.0.0/8"}})
	if _, err := f.Fetch(context.Background(), base); err != nil {
		t.Fatalf("fetch allowed by prefix: %v", err)
	}
}

func TestBadAllowHosts(t *testing.T) {
	for _, h := range []string{"10.0.0.0/33", "http://x", "host:80"} {
		if _, err := NewFetcher(FetchOptions{AllowHosts: []string{h}}); err == nil {
			t.Errorf("allow host %q accepted", h)
		}
	}
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/mid", http.StatusMovedPermanently) })
	mux.HandleFunc("/mid", func(w http.ResponseWriter, r *http.Request) {
		u := "https://www." + r.Host + "/new"
		http.Redirect(w, r, u, http.StatusFound)
	})
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "arrived at "+r.Host) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://other.example.org/page?x=1", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/downgrade", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/new", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	_, f, base := server(t, mux, FetchOptions{AllowHosts: []string{"example.com", "www.example.com"}})

	p, err := f.Fetch(context.Background(), base+"/old")
	if err != nil || p.Redirect != nil || !strings.HasPrefix(p.Content, "arrived at www.example.com") || !strings.HasSuffix(p.FinalURL, "/new") {
		t.Fatalf("same-host redirects: %+v, %v", p, err)
	}
	p, err = f.Fetch(context.Background(), base+"/away")
	if err != nil || p.Redirect == nil || p.Redirect.To != "https://other.example.org/page?x=1" || p.Redirect.Status != 307 || p.Redirect.StatusText() != "Temporary Redirect" {
		t.Fatalf("other-host redirect: %+v, %v", p, err)
	}
	p, err = f.Fetch(context.Background(), base+"/downgrade")
	if err != nil || p.Redirect == nil || !strings.HasPrefix(p.Redirect.To, "http://") {
		t.Fatalf("a redirect to http is reported, not followed: %+v, %v", p, err)
	}
	if _, err := f.Fetch(context.Background(), base+"/loop"); err == nil || !strings.Contains(err.Error(), "redirected more than 10 times") {
		t.Fatalf("loop: %v", err)
	}
	if _, err := f.Fetch(context.Background(), base+"/nolocation"); err == nil || !strings.Contains(err.Error(), "without a Location") {
		t.Fatalf("no location: %v", err)
	}
}

// TestRedirectToLocalRefused: a public host redirecting to a blocked
// address on the same name is followed only through the guard.
func TestRedirectToLocalRefused(t *testing.T) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	_, f, base := server(t, mux, FetchOptions{})
	p, err := f.Fetch(context.Background(), base+"/")
	if err != nil || p.Redirect == nil || p.Redirect.To != "https://169.254.169.254/latest/meta-data/" {
		t.Fatalf("%+v, %v", p, err)
	}
	if _, err := f.Fetch(context.Background(), p.Redirect.To); err == nil || !strings.Contains(err.Error(), "link-local") {
		t.Fatalf("metadata fetch: %v", err)
	}
}

func TestLimits(t *testing.T) {
	big := strings.Repeat("x", 2048)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, big) })
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			fmt.Fprint(w, big[:600])
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/ua", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.UserAgent()) })
	mux.HandleFunc("/404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	_, f, base := server(t, mux, FetchOptions{MaxBytes: 1024, Timeout: 100 * time.Millisecond, UserAgent: "Hands/9.9 (+https://github.com/hands-dev/hands)"})
	var tl *TooLargeError
	if _, err := f.Fetch(context.Background(), base+"/big"); !errors.As(err, &tl) {
		t.Errorf("declared too large: %v", err)
	}
	if _, err := f.Fetch(context.Background(), base+"/chunked"); !errors.As(err, &tl) {
		t.Errorf("streamed too large: %v", err)
	}
	var te *TimeoutError
	if _, err := f.Fetch(context.Background(), base+"/hang"); !errors.As(err, &te) || !strings.Contains(err.Error(), "longer than 100ms") {
		t.Errorf("hang: %v", err)
	}
	if p, err := f.Fetch(context.Background(), base+"/ua"); err != nil || p.Content != "Hands/9.9 (+https://github.com/hands-dev/hands)" {
		t.Errorf("user agent: %+v, %v", p, err)
	}
	var se *StatusError
	if _, err := f.Fetch(context.Background(), base+"/404"); !errors.As(err, &se) || se.Status != 404 {
		t.Errorf("404: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Fetch(ctx, base+"/ua?x"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestContentTypes(t *testing.T) {
	mux := http.NewServeMux()
	serve := func(path, ct, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			fmt.Fprint(w, body)
		})
	}
	serve("/json", "application/json; charset=utf-8", `{"a": [1, 2]}`)
	serve("/text", "text/plain", "plain <b>text</b>")
	serve("/png", "image/png", "\x89PNG\r\n\x1a\n....")
	serve("/zip", "application/octet-stream", "PK\x03\x04")
	serve("/latin1", "text/plain; charset=iso-8859-1", "caf\xe9")
	_, f, base := server(t, mux, FetchOptions{})
	for path, want := range map[string]string{"/json": `{"a": [1, 2]}`, "/text": "plain <b>text</b>", "/latin1": "café"} {
		p, err := f.Fetch(context.Background(), base+path)
		if err != nil || p.Content != want {
			t.Errorf("%s: %+v, %v", path, p, err)
		}
	}
	for path, ct := range map[string]string{"/png": "image/png", "/zip": "application/octet-stream"} {
		var te *TypeError
		if _, err := f.Fetch(context.Background(), base+path); !errors.As(err, &te) || te.ContentType != ct || !strings.Contains(err.Error(), ct) {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// TestMarkdownGoldens converts testdata/*.html through a fetch and
// compares with the .md beside it.
func TestMarkdownGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.html")
	if len(files) == 0 {
		t.Fatal("no testdata/*.html")
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	_, f, base := server(t, mux, FetchOptions{})
	for _, file := range files {
		name := filepath.Base(file)
		p, err := f.Fetch(context.Background(), base+"/"+name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := strings.ReplaceAll(p.Content, base, "https://$HOST")
		golden := strings.TrimSuffix(file, ".html") + ".md"
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

func TestCache(t *testing.T) {
	var hits atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		fmt.Fprintf(w, "visit %d %s", n, strings.Repeat("y", 400))
	})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, f, base := server(t, h, FetchOptions{Now: func() time.Time { return now }, CacheBytes: 1000})
	get := func(path string) *Page {
		t.Helper()
		p, err := f.Fetch(context.Background(), base+path)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := get("/a")
	b := get("/a")
	if !b.Cached || b.Content != a.Content || hits.Load() != 1 {
		t.Fatalf("second fetch not from the cache: cached %v, hits %d", b.Cached, hits.Load())
	}
	// http:// and https:// are one page.
	if p := get("/a"); !p.Cached {
		t.Fatal("not cached")
	}
	if p, _ := f.Fetch(context.Background(), strings.Replace(base, "https://", "http://", 1)+"/a"); !p.Cached {
		t.Fatal("the http form of a cached URL was fetched again")
	}
	now = now.Add(15*time.Minute + time.Second)
	if p := get("/a"); p.Cached || hits.Load() != 2 {
		t.Fatalf("expired entry served: cached %v hits %d", p.Cached, hits.Load())
	}
	// The cache holds at most 1000 bytes: two pages of ~410 fit, a third evicts the oldest.
	get("/b")
	get("/c")
	if p := get("/a"); p.Cached {
		t.Fatal("the least recently used page was not evicted")
	}
	if p := get("/c"); !p.Cached {
		t.Fatal("a recent page was evicted")
	}
}
