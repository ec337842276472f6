package agent

import (
	"errors"
	"strings"

	"github.com/hands-dev/hands/model"
)

// Provider configures a model API: which, where, with what key, and the
// model names to ask for.
type Provider struct {
	// Kind is "anthropic" or "openai".
	Kind string
	// APIKey authenticates; it never appears in an error.
	APIKey string
	// BaseURL replaces the API's address (a local server).
	BaseURL string
	// Model is the default model; SmallModel answers web_fetch's
	// question about a page.
	Model, SmallModel string
	// Models maps an agent type's name, or Claude Code's aliases (sonnet,
	// opus, haiku), to a model name.
	Models map[string]string
}

// defaultModels returns the default model names of an API (the model and
// the small model), when the configuration gives none.
func defaultModels(kind string) [2]string {
	switch kind {
	case "anthropic":
		return [2]string{"claude-sonnet-4-5", "claude-haiku-4-5"}
	case "openai":
		return [2]string{"gpt-4.1", "gpt-4.1-mini"}
	}
	return [2]string{}
}

// claudeAlias returns the model a name Claude Code's Task tool takes for a
// model stands for.
func claudeAlias(name string) (string, bool) {
	switch name {
	case "sonnet":
		return "claude-sonnet-4-5", true
	case "opus":
		return "claude-opus-4-1", true
	case "haiku":
		return "claude-haiku-4-5", true
	}
	return "", false
}

// modelFor returns the model name a request asks for.
func (p Provider) modelFor(req *model.Request) string {
	if req.Model != "" {
		if m, ok := p.Models[req.Model]; ok {
			return m
		}
		if a, ok := claudeAlias(req.Model); ok {
			if p.Kind == "anthropic" {
				return a
			}
			return p.defaultModel(req.Model == "haiku")
		}
		return req.Model
	}
	return p.defaultModel(req.Small)
}

func (p Provider) defaultModel(small bool) string {
	if small {
		if p.SmallModel != "" {
			return p.SmallModel
		}
		if m := p.Models["web_fetch"]; m != "" {
			return m
		}
	}
	if p.Model != "" {
		return p.Model
	}
	d := defaultModels(p.Kind)
	if small {
		return d[1]
	}
	return d[0]
}

// scrub removes the key from an error's text: an SDK error may quote a
// request.
func (p Provider) scrub(err error) error {
	if err == nil || p.APIKey == "" || !strings.Contains(err.Error(), p.APIKey) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), p.APIKey, "[key]"))
}
