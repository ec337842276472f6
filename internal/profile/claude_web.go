package profile

import (
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// Claude Code 2.1.7's web tool messages: a text that is no URL fails its
// schema's url format (measured with ../shared/oracles/claude, scenario
// webfetch_invalid_url); WebSearch's domain-list check is read from its
// code (cli.js).
const (
	claudeInvalidURL   = "InputValidationError: [\n  {\n    \"code\": \"invalid_format\",\n    \"format\": \"url\",\n    \"path\": [\n      \"url\"\n    ],\n    \"message\": \"Invalid URL\"\n  }\n]"
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
		return claudeInvalidURL, true
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
