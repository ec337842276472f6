package profile

import (
	"fmt"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// Claude Code 2.1.7's web tool messages, read from its code (cli.js): the
// URL check of WebFetch's validateInput and WebSearch's domain-list check.
const (
	claudeInvalidURL   = "Error: Invalid URL \"%s\". The URL provided could not be parsed."
	claudeBothDomains  = "Error: Cannot specify both allowed_domains and blocked_domains in the same request"
	claudeWebFetchName = "WebFetch"
)

// claudeWebError is Claude Code's text for a web tool's error, when it has
// one.
func claudeWebError(r *Rendering, e *tool.Error) (string, bool) {
	if e.Code != tool.InvalidInput {
		return "", false
	}
	switch r.detail("reason") {
	case "invalid_url":
		return fmt.Sprintf(claudeInvalidURL, r.detail("url")), true
	case "both_domains":
		return claudeBothDomains, true
	}
	return "", false
}

// claudeWebResult renders a web tool's result where Claude Code's differs
// from the core's: a redirect names WebFetch. WebSearch's core text is
// already Claude Code's.
func claudeWebResult(r *Rendering) bool {
	if out, ok := r.Out.(*tools.WebFetchOutput); ok && out.Redirect != nil {
		r.Text(out.RedirectText(claudeWebFetchName))
		return true
	}
	return false
}
