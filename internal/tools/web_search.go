package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/internal/web"
	"github.com/hands-dev/hands/tool"
)

//go:embed web_search.md
var webSearchDescription string

// WebSearchInput is the input of web_search.
type WebSearchInput struct {
	Query          string   `json:"query" jsonschema:"what to search for"`
	AllowedDomains []string `json:"allowed_domains,omitempty" jsonschema:"only include results from these domains (and their subdomains)"`
	BlockedDomains []string `json:"blocked_domains,omitempty" jsonschema:"never include results from these domains (and their subdomains)"`
}

// WebSearchOutput is what web_search returns.
type WebSearchOutput struct {
	Query   string       `json:"query"`
	Results []web.Result `json:"results"`
}

// WebSearch returns the web_search tool.
func WebSearch() tool.Tool {
	return tool.New(tool.Spec[WebSearchInput]{
		Name:        "web_search",
		Title:       "Search the web",
		Description: webSearchDescription,
		ReadOnly:    true,
		OpenWorld:   true,
		Validate: func(_ context.Context, _ *tool.Env, in WebSearchInput) (WebSearchInput, error) {
			if len(strings.TrimSpace(in.Query)) < 2 {
				return in, toolErr(tool.InvalidInput, "%s %q is too short; give at least two characters to search for", param("query"), in.Query)
			}
			if len(in.AllowedDomains) > 0 && len(in.BlockedDomains) > 0 {
				return in, toolErr(tool.InvalidInput, "%s and %s are both given; use one of them per search", param("allowed_domains"), param("blocked_domains")).With("reason", "both_domains")
			}
			for _, list := range [][]string{in.AllowedDomains, in.BlockedDomains} {
				for _, d := range list {
					if web.NormalizeDomain(d) == "" {
						return in, toolErr(tool.InvalidInput, "domain %q is empty; give host names such as go.dev", d)
					}
				}
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in WebSearchInput) (*WebSearchOutput, error) {
		st := stateOf(env)
		var backend web.SearchBackend
		if st.Web != nil {
			backend = st.Web.Search
		}
		rs, err := web.Search(ctx, backend, web.Query{Text: in.Query, Allowed: in.AllowedDomains, Blocked: in.BlockedDomains})
		switch {
		case errors.Is(err, web.ErrNoBackend):
			return nil, toolErr(tool.SearchNotConfigured, "%v", err)
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			return nil, toolErr(tool.SearchFailed, "searching for %q: %v", in.Query, err).With("query", in.Query)
		}
		if rs == nil {
			rs = []web.Result{}
		}
		return &WebSearchOutput{Query: in.Query, Results: rs}, nil
	})
}

// Content renders the results as Claude Code does: the query, the links
// as JSON, then each result's snippet.
func (o *WebSearchOutput) Content() []tool.Content {
	return []tool.Content{tool.Text(o.Text())}
}

// Text is Claude Code 2.1.7's result text for a search: the query line, the
// links as a JSON array of title and url, the snippets (the commentary
// Claude Code's server-side search puts between link lists) and the
// reminder to cite.
func (o *WebSearchOutput) Text() string {
	var b strings.Builder
	b.WriteString("Web search results for query: \"" + o.Query + "\"\n\n")
	if len(o.Results) == 0 {
		b.WriteString("No links found.\n\n")
	} else {
		type link struct {
			Title string `json:"title"`
			URL   string `json:"url"`
		}
		links := make([]link, len(o.Results))
		for i, r := range o.Results {
			links[i] = link{r.Title, r.URL}
		}
		// JSON.stringify's form: no HTML escaping.
		var j strings.Builder
		enc := json.NewEncoder(&j)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(links)
		fmt.Fprintf(&b, "Links: %s\n\n", strings.TrimSuffix(j.String(), "\n"))
		var snippets []string
		for _, r := range o.Results {
			if s := strings.Join(strings.Fields(r.Snippet), " "); s != "" {
				snippets = append(snippets, fmt.Sprintf("- %s (%s): %s", r.Title, r.URL, s))
			}
		}
		if len(snippets) > 0 {
			b.WriteString(strings.Join(snippets, "\n") + "\n\n")
		}
	}
	b.WriteString("\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.")
	return strings.TrimSpace(b.String())
}
