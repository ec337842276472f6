package tools_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/internal/tooltest"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

var updateWeb = flag.Bool("update-web", false, "rewrite testdata/web_*/*.golden")

// webSite is the test web: a TLS server on 127.0.0.1 (fetches are https
// only) with the pages the scenarios fetch.
func webSite(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/docs", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Widget</title><script>steal()</script></head><body>
<h1>Widget</h1><p>Install with <code>go install example.com/widget@latest</code>.</p>
<p>See <a href="/guide">the guide</a>.</p></body></html>`)
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "line one\nline two\n")
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"version":"1.2.3"}`)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/notes.txt", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://docs.example.org/widget", http.StatusFound)
	})
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 11 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

// searx is a fake SearXNG instance answering its JSON API.
func searx(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		q := r.URL.Query().Get("q")
		json.NewEncoder(w).Encode(map[string]any{"query": q, "results": []map[string]string{
			{"title": "Widget docs", "url": "https://widget.dev/docs", "content": "How to install <the> widget & use it."},
			{"title": "Widget on GitHub", "url": "https://github.com/example/widget", "content": "Source code."},
			{"title": "Widget blog", "url": "https://blog.widget.dev/2026", "content": ""},
		}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

type webCase struct {
	name  string
	opts  hands.Options
	calls []tool.Call
}

func call(name, input string) tool.Call { return tool.Call{Name: name, Input: json.RawMessage(input)} }

// TestWebGoldens runs web_fetch and web_search through the real executor
// under the native and claude profiles and compares the results with
// testdata/web_fetch and testdata/web_search goldens.
func TestWebGoldens(t *testing.T) {
	site, _ := webSite(t)
	search := searx(t)
	tlsConf := site.Client().Transport.(*http.Transport).TLSClientConfig
	base := site.URL // https://127.0.0.1:PORT
	local := []string{"127.0.0.1"}
	var mu sync.Mutex
	var prompts []string
	answer := model.Func(func(_ context.Context, system, prompt string) (string, error) {
		mu.Lock()
		prompts = append(prompts, prompt)
		mu.Unlock()
		return "The widget installs with `go install example.com/widget@latest`.", nil
	})
	fetches := func(fetch string) []tool.Call {
		return []tool.Call{
			call(fetch, `{"url":"`+base+`/docs","prompt":"How do I install it?"}`),
			call(fetch, `{"url":"`+strings.Replace(base, "https", "http", 1)+`/notes.txt","prompt":"What is on line two?"}`),
			call(fetch, `{"url":"`+base+`/api","prompt":"Which version?"}`),
			call(fetch, `{"url":"`+base+`/moved","prompt":"Follow it"}`),
			call(fetch, `{"url":"`+base+`/away","prompt":"Where is it?"}`),
			call(fetch, `{"url":"`+base+`/logo.png","prompt":"Describe it"}`),
			call(fetch, `{"url":"`+base+`/missing","prompt":"x"}`),
			call(fetch, `{"url":"`+base+`/huge","prompt":"x"}`),
			call(fetch, `{"url":"example.com/docs","prompt":"x"}`),
			call(fetch, `{"url":"ftp://example.com/file","prompt":"x"}`),
			call(fetch, `{"url":"https://user:pw@example.com/","prompt":"x"}`),
			call(fetch, `{"url":"`+base+`/docs","prompt":"  "}`),
		}
	}
	searches := func(name string) []tool.Call {
		return []tool.Call{
			call(name, `{"query":"widget install"}`),
			call(name, `{"query":"widget install","allowed_domains":["widget.dev"]}`),
			call(name, `{"query":"widget install","blocked_domains":["github.com"]}`),
			call(name, `{"query":"widget","allowed_domains":["a.dev"],"blocked_domains":["b.dev"]}`),
			call(name, `{"query":"w"}`),
		}
	}
	srch := hands.SearchOptions{Backend: "searxng", URL: search.URL}
	cases := []webCase{
		{"web_fetch/native", hands.Options{AllowHosts: local, WebTLS: tlsConf}, fetches("web_fetch")},
		{"web_fetch/claude", hands.Options{Profile: "claude", AllowHosts: local, WebTLS: tlsConf}, fetches("WebFetch")},
		{"web_fetch/model", hands.Options{AllowHosts: local, WebTLS: tlsConf, Model: answer}, fetches("web_fetch")[:2]},
		{"web_fetch/cut", hands.Options{AllowHosts: local, WebTLS: tlsConf, Limits: hands.Limits{WebFetchChars: 20}}, fetches("web_fetch")[:1]},
		{"web_fetch/model_failed", hands.Options{AllowHosts: local, WebTLS: tlsConf, Model: model.Func(func(context.Context, string, string) (string, error) {
			return "", fmt.Errorf("sampling: the user declined")
		})}, fetches("web_fetch")[:1]},
		{"web_fetch/blocked", hands.Options{WebTLS: tlsConf}, []tool.Call{
			call("web_fetch", `{"url":"`+base+`/docs","prompt":"x"}`),
			call("web_fetch", `{"url":"https://[::1]:1/","prompt":"x"}`),
			call("web_fetch", `{"url":"http://169.254.169.254/latest/meta-data/","prompt":"x"}`),
			call("web_fetch", `{"url":"http://[::ffff:10.0.0.1]/","prompt":"x"}`),
		}},
		{"web_search/native", hands.Options{Search: srch}, searches("web_search")},
		{"web_search/claude", hands.Options{Profile: "claude", Search: srch}, searches("WebSearch")},
		{"web_search/unconfigured", hands.Options{Search: hands.SearchOptions{}}, searches("web_search")[:1]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasSuffix(c.name, "unconfigured") {
				for _, k := range []string{"SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY"} {
					t.Setenv(k, "")
				}
			}
			c.opts.Roots = []string{t.TempDir()}
			rt, err := hands.New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			sess, err := rt.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			var got strings.Builder
			for _, cl := range c.calls {
				got.WriteString(tooltest.Format(sess.Call(context.Background(), cl)))
			}
			out := strings.ReplaceAll(got.String(), strings.TrimPrefix(base, "https://"), "$HOST")
			out = strings.ReplaceAll(out, strings.TrimPrefix(search.URL, "http://"), "$SEARCH")
			golden := filepath.Join("testdata", c.name+".golden")
			if *updateWeb {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestWebGoldens -update-web)", err)
			}
			if out != string(want) {
				t.Errorf("%s differs (run with -update-web to accept)\n--- got ---\n%s--- want ---\n%s", golden, out, want)
			}
		})
	}
	if len(prompts) != 2 || !strings.Contains(prompts[0], "Install with `go install example.com/widget@latest`") ||
		!strings.Contains(prompts[0], "How do I install it?") || strings.Contains(prompts[0], "steal()") ||
		!strings.Contains(prompts[1], "line two") {
		t.Errorf("the model was asked %q", prompts)
	}
}

// TestWebFetchCache: a second fetch of a URL within 15 minutes is served
// from the runtime's cache, in any session; the server sees one request.
func TestWebFetchCache(t *testing.T) {
	site, hits := webSite(t)
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, AllowHosts: []string{"127.0.0.1"},
		WebTLS: site.Client().Transport.(*http.Transport).TLSClientConfig})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for i := range 3 {
		sess, err := rt.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		res := sess.Call(context.Background(), call("web_fetch", `{"url":"`+site.URL+`/docs","prompt":"x"}`))
		sess.Close()
		out, ok := res.Structured.(*tools.WebFetchOutput)
		if res.IsError || !ok || out.Cached != (i > 0) {
			t.Fatalf("fetch %d: %+v", i, res)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("the server saw %d requests", n)
	}
}

// TestWebFetchDomain is what permission rules WebFetch(domain:…) match:
// the decoded input's Domain.
func TestWebFetchDomain(t *testing.T) {
	var seen []string
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Profile: "claude",
		Policy: tool.PolicyFunc(func(_ context.Context, info tool.Info, _ tool.Call, in any) (tool.Decision, string) {
			if d, ok := in.(interface{ Domain() string }); ok {
				seen = append(seen, d.Domain())
				return tool.Deny, "WebFetch denied access to domain:" + d.Domain() + "."
			}
			return tool.Allow, ""
		})})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sess, _ := rt.NewSession()
	defer sess.Close()
	res := sess.Call(context.Background(), call("WebFetch", `{"url":"http://Docs.Example.COM/a","prompt":"x"}`))
	if !res.IsError || res.Code != tool.PermissionDenied || len(seen) != 1 || seen[0] != "docs.example.com" {
		t.Fatalf("%v %v %q", res.Code, seen, res.TextOf())
	}
}
