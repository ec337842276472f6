//lint:file-ignore SA1019 the test client answers sampling requests, a deprecated but working MCP feature.

package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// webClient serves a page over TLS, starts a Hands server that may fetch
// it, and connects a go-sdk client with opts.
func webClient(t *testing.T, opts hands.Options, copts *mcp.ClientOptions) (*mcp.ClientSession, string) {
	t.Helper()
	return webClientSpeaking(t, opts, copts, "")
}

// webClientSpeaking is webClient with a client asking for a protocol
// version ("" for the newest).
func webClientSpeaking(t *testing.T, opts hands.Options, copts *mcp.ClientOptions, version string) (*mcp.ClientSession, string) {
	t.Helper()
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<h1>Widget</h1><p>Version <b>4.2</b> is current.</p>`)
	}))
	t.Cleanup(site.Close)
	opts.Roots = []string{t.TempDir()}
	opts.AllowHosts = []string{"127.0.0.1"}
	opts.WebTLS = site.Client().Transport.(*http.Transport).TLSClientConfig
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	srv := mcpserver.New(rt, mcpserver.Options{})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sampler", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return cs, site.URL
}

func fetchText(t *testing.T, cs *mcp.ClientSession, url string) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": url, "prompt": "Which version is current?"}})
	if err != nil || res.IsError {
		t.Fatalf("web_fetch: %v %+v", err, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestWebFetchAsksTheClientsModel: a client that offers sampling gets
// sampling/createMessage with the page and the prompt, and its model's
// answer is the result.
func TestWebFetchAsksTheClientsModel(t *testing.T) {
	var mu sync.Mutex
	var reqs []*mcp.CreateMessageParams
	cs, url := webClient(t, hands.Options{}, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			reqs = append(reqs, req.Params)
			mu.Unlock()
			return &mcp.CreateMessageResult{Model: "small", Role: "assistant", Content: &mcp.TextContent{Text: "Version 4.2 is current."}}, nil
		},
	})
	if got := fetchText(t, cs, url); got != "Version 4.2 is current." {
		t.Fatalf("result %q", got)
	}
	if len(reqs) != 1 {
		t.Fatalf("%d sampling requests", len(reqs))
	}
	p := reqs[0]
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	if p.Messages[0].Role != "user" || !strings.Contains(text, "# Widget") || !strings.Contains(text, "Version **4.2** is current.") ||
		!strings.Contains(text, "Which version is current?") || p.SystemPrompt == "" || p.MaxTokens <= 0 {
		t.Fatalf("sampling request %+v, text %q", p, text)
	}
}

// TestWebFetchWithoutSampling: a client without sampling gets the page
// itself, with the note; a host's Options.Model wins over sampling.
func TestWebFetchWithoutSampling(t *testing.T) {
	cs, url := webClient(t, hands.Options{}, nil)
	if got := fetchText(t, cs, url); !strings.Contains(got, "Version **4.2** is current.") || !strings.Contains(got, "No model is available") {
		t.Fatalf("result %q", got)
	}
	sampled := false
	cs, url = webClient(t, hands.Options{Model: model.Func(func(context.Context, string, string) (string, error) { return "from the host", nil })},
		&mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			sampled = true
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "from the client"}}, nil
		}})
	if got := fetchText(t, cs, url); got != "from the host" || sampled {
		t.Fatalf("result %q, sampled %v", got, sampled)
	}
}

// TestWebFetchSamplingNoText: when the client's model answers with no
// text, the result is the page with a note saying why.
func TestWebFetchSamplingNoText(t *testing.T) {
	cs, url := webClient(t, hands.Options{}, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.ImageContent{MIMEType: "image/png", Data: []byte("png")}}, nil
		},
	})
	if got := fetchText(t, cs, url); !strings.Contains(got, "Version **4.2** is current.") || !strings.Contains(got, "answered with no text") {
		t.Fatalf("result %q", got)
	}
}
