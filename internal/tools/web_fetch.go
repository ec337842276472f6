package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/internal/web"
	"github.com/hands-dev/hands/tool"
)

//go:embed web_fetch.md
var webFetchDescription string

// WebFetchInput is the input of web_fetch.
type WebFetchInput struct {
	URL    string `json:"url" jsonschema:"the URL to fetch: http or https (http is upgraded to https)"`
	Prompt string `json:"prompt" jsonschema:"what to find out from the page"`
}

// Domain returns the lower-case host name the URL names, or "" when the
// URL is not one a fetch accepts. Permission rules such as
// WebFetch(domain:example.com) match it.
func (in WebFetchInput) Domain() string { return web.Host(in.URL) }

// WebFetchOutput is what web_fetch returns.
type WebFetchOutput struct {
	// URL is the address fetched, after the https upgrade.
	URL string `json:"url"`
	// Code and CodeText are the HTTP status of the answer.
	Code     int    `json:"code"`
	CodeText string `json:"code_text"`
	// ContentType is the page's media type; Bytes the size of its body.
	ContentType string `json:"content_type,omitempty"`
	Bytes       int    `json:"bytes"`
	// Result is the model's answer to the prompt, or the page itself as
	// markdown when no model answered (then Answered is false).
	Result   string `json:"result"`
	Answered bool   `json:"answered"`
	// Cut reports that Result is the page cut to the limit; Chars counts
	// the page's characters.
	Cut   bool `json:"cut,omitempty"`
	Chars int  `json:"chars,omitempty"`
	// ModelError says why the model did not answer, when it failed.
	ModelError string `json:"model_error,omitempty"`
	// Cached reports that the page came from the 15-minute cache.
	Cached bool `json:"cached,omitempty"`
	// Redirect is set when the page is on another host: the fetch did
	// not follow it, and Result says where it points.
	Redirect *WebRedirect `json:"redirect,omitempty"`
	// Prompt is the call's prompt, which a redirect message repeats.
	Prompt string `json:"-"`
}

// WebRedirect is a redirect to another host, not followed.
type WebRedirect struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Status int    `json:"status"`
}

// Web is what the web tools reach the web through; a runtime shares one
// among its sessions (the fetcher's cache with it).
type Web struct {
	Fetcher *web.Fetcher
	// Search is the configured search backend; nil when none is.
	Search web.SearchBackend
}

// WebFetch returns the web_fetch tool.
func WebFetch(lim Limits) tool.Tool {
	return tool.New(tool.Spec[WebFetchInput]{
		Name:           "web_fetch",
		Title:          "Fetch a web page",
		Description:    webFetchDescription,
		ReadOnly:       true,
		OpenWorld:      true,
		MaxResultChars: lim.WebFetchChars + 2000,
		Resolve: func(_ context.Context, _ *tool.Env, in WebFetchInput) (WebFetchInput, error) {
			u, err := web.ParseURL(in.URL)
			if err != nil {
				return in, urlErr(in.URL, err)
			}
			in.URL = u.String()
			return in, nil
		},
		Validate: func(_ context.Context, _ *tool.Env, in WebFetchInput) (WebFetchInput, error) {
			if strings.TrimSpace(in.Prompt) == "" {
				return in, toolErr(tool.InvalidInput, "%s is empty; say what to find out from the page", param("prompt"))
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in WebFetchInput) (*WebFetchOutput, error) {
		st := stateOf(env)
		if st.Web == nil || st.Web.Fetcher == nil {
			return nil, toolErr(tool.NetworkError, "this session has no web access")
		}
		page, err := st.Web.Fetcher.Fetch(ctx, in.URL)
		if err != nil {
			return nil, fetchErr(ctx, in.URL, err)
		}
		out := &WebFetchOutput{URL: page.URL, Prompt: in.Prompt, Cached: page.Cached}
		if r := page.Redirect; r != nil {
			out.Redirect = &WebRedirect{From: r.From, To: r.To, Status: r.Status}
			out.Code, out.CodeText = r.Status, r.StatusText()
			out.Result = redirectText(out, "web_fetch")
			out.Bytes = len(out.Result)
			return out, nil
		}
		out.Code, out.CodeText, out.ContentType, out.Bytes = page.Status, page.StatusText, page.ContentType, page.Bytes
		if m := st.Model; m != nil {
			answer, err := m.Complete(ctx, web.ApplySystem, web.ApplyPrompt(page.Content, in.Prompt))
			switch {
			case err == nil && strings.TrimSpace(answer) != "":
				out.Result, out.Answered = answer, true
				return out, nil
			case ctx.Err() != nil:
				return nil, ctx.Err()
			case err != nil:
				out.ModelError = err.Error()
			default:
				out.ModelError = "the model gave an empty answer"
			}
		}
		out.Chars = web.Chars(page.Content)
		out.Result = web.Cut(page.Content, st.Limits.WithDefaults().WebFetchChars)
		out.Cut = len(out.Result) < len(page.Content)
		return out, nil
	})
}

// redirectText is Claude Code's message for a redirect to another host,
// naming the tool to call again.
func redirectText(o *WebFetchOutput, name string) string {
	r := o.Redirect
	return fmt.Sprintf("REDIRECT DETECTED: The URL redirects to a different host.\n\nOriginal URL: %s\nRedirect URL: %s\nStatus: %d %s\n\nTo complete your request, I need to fetch content from the redirected URL. Please use %s again with these parameters:\n- url: \"%s\"\n- prompt: \"%s\"",
		r.From, r.To, r.Status, o.CodeText, name, r.To, o.Prompt)
}

// RedirectText renders o's redirect message for the tool called name (a
// profile's name for web_fetch).
func (o *WebFetchOutput) RedirectText(name string) string { return redirectText(o, name) }

// urlErr is the error of a URL refused before anything was sent; a text
// that is no URL at all carries reason invalid_url (Claude Code's).
func urlErr(url string, err error) *tool.Error {
	e := toolErr(tool.InvalidInput, "%s: %v", param("url"), err).With("url", url)
	var ue *web.URLError
	if errors.As(err, &ue) && ue.Malformed {
		e = e.With("reason", "invalid_url")
	}
	return e
}

// fetchErr maps the engine's errors to codes.
func fetchErr(ctx context.Context, url string, err error) error {
	var (
		ue *web.URLError
		be *web.BlockedError
		se *web.StatusError
		te *web.TypeError
		le *web.TooLargeError
		to *web.TimeoutError
	)
	switch {
	case errors.As(err, &ue):
		return urlErr(url, ue)
	case errors.As(err, &be):
		return toolErr(tool.NetworkBlocked, "fetching %s: %v", url, be).With("url", url)
	case errors.As(err, &se):
		return toolErr(tool.HTTPError, "fetching %s: the server answered %d %s", url, se.Status, se.Text).With("url", url).With("status", se.Status)
	case errors.As(err, &te):
		return toolErr(tool.UnsupportedContent, "fetching %s: the page is %s, which is not text, HTML or JSON; only text pages can be fetched", url, te.ContentType).With("url", url).With("content_type", te.ContentType)
	case errors.As(err, &le):
		return toolErr(tool.ResponseTooLarge, "fetching %s: the page is larger than %d bytes, the most a fetch reads; fetch a smaller page (a section, or the raw file)", url, le.Limit).With("url", url)
	case errors.As(err, &to):
		return toolErr(tool.NetworkError, "fetching %s: no complete answer within %s; try again later or fetch a smaller page", url, to.Timeout).With("url", url)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return toolErr(tool.NetworkError, "fetching %s: %v", url, err).With("url", url)
}

// Content renders the result: the answer, or the page with a note saying
// no model answered.
func (o *WebFetchOutput) Content() []tool.Content {
	return []tool.Content{tool.Text(o.Text())}
}

// Text is the result text: the answer or redirect message, or the page
// followed by a note when no model answered the prompt.
func (o *WebFetchOutput) Text() string {
	if o.Answered || o.Redirect != nil {
		return o.Result
	}
	var note string
	switch {
	case o.ModelError != "":
		note = "The model that answers prompts failed (" + o.ModelError + "), so this is the page itself as markdown"
	default:
		note = "No model is available to answer the prompt, so this is the page itself as markdown"
	}
	if o.Cut {
		note += fmt.Sprintf(", cut at %d of its %d characters", web.Chars(o.Result), o.Chars)
	}
	return strings.TrimRight(o.Result, "\n") + "\n\n[" + note + ".]"
}
