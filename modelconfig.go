package hands

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/hands-dev/hands/internal/agent"
	"github.com/hands-dev/hands/model"
)

// The environment variables the model APIs' SDKs read, which Hands reads
// the same way.
const (
	EnvAnthropicKey  = "ANTHROPIC_API_KEY"
	EnvAnthropicURL  = "ANTHROPIC_BASE_URL"
	EnvOpenAIKey     = "OPENAI_API_KEY"
	EnvOpenAIBaseURL = "OPENAI_BASE_URL"
)

// ModelOptions configure the model API that runs subagents (Task) and
// answers web_fetch's prompt when the host brings no Options.Model. Empty
// keys and base URLs come from the environment: ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL. Shell commands never
// see these variables, and no result or error shows a key.
type ModelOptions struct {
	// Provider is "anthropic" or "openai" (any OpenAI-compatible Chat
	// Completions server); empty picks the one whose key or base URL is
	// set, Anthropic first.
	Provider         string `json:"provider,omitempty"`
	AnthropicAPIKey  string `json:"-"`
	AnthropicBaseURL string `json:"anthropic_base_url,omitempty"`
	OpenAIAPIKey     string `json:"-"`
	OpenAIBaseURL    string `json:"openai_base_url,omitempty"`
	// Model is the subagents' model; SmallModel answers web_fetch's
	// prompt. Empty: the provider's usual ones (claude-sonnet-4-5 and
	// claude-haiku-4-5; gpt-4.1 and gpt-4.1-mini).
	Model      string `json:"model,omitempty"`
	SmallModel string `json:"small_model,omitempty"`
	// Agents maps an agent type (Explore, general-purpose, a user
	// agent's name) or Claude Code's aliases (sonnet, opus, haiku) to a
	// model name.
	Agents map[string]string `json:"agents,omitempty"`
	// MaxTurns bounds a subagent's model turns (default 50); MaxDepth how
	// deep subagents may nest (default 2: a subagent may start one more
	// level).
	MaxTurns int `json:"max_turns,omitempty"`
	MaxDepth int `json:"max_depth,omitempty"`
	// HTTPClient, when set, carries the API requests (tests, proxies).
	HTTPClient *http.Client `json:"-"`
}

// Default bounds of subagents.
const (
	DefaultAgentTurns = 50
	DefaultAgentDepth = 2
)

// withEnv fills empty keys and base URLs from getenv.
func (o ModelOptions) withEnv(getenv func(string) string) ModelOptions {
	fill := func(v *string, name string) {
		if *v == "" {
			*v = strings.TrimSpace(getenv(name))
		}
	}
	fill(&o.AnthropicAPIKey, EnvAnthropicKey)
	fill(&o.AnthropicBaseURL, EnvAnthropicURL)
	fill(&o.OpenAIAPIKey, EnvOpenAIKey)
	fill(&o.OpenAIBaseURL, EnvOpenAIBaseURL)
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultAgentTurns
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultAgentDepth
	}
	return o
}

// apiModel returns the model API the options configure, nil when none is.
func (o ModelOptions) apiModel() (model.Model, error) {
	o = o.withEnv(os.Getenv)
	kind := o.Provider
	if kind == "" {
		switch {
		case o.AnthropicAPIKey != "" || o.AnthropicBaseURL != "":
			kind = "anthropic"
		case o.OpenAIAPIKey != "" || o.OpenAIBaseURL != "":
			kind = "openai"
		default:
			return nil, nil
		}
	}
	p := agent.Provider{Kind: kind, Model: o.Model, SmallModel: o.SmallModel, Models: o.Agents}
	switch kind {
	case "anthropic":
		p.APIKey, p.BaseURL = o.AnthropicAPIKey, o.AnthropicBaseURL
		if p.APIKey == "" {
			return nil, fmt.Errorf("model: the anthropic provider needs %s (in the environment or the model section of --config)", EnvAnthropicKey)
		}
		return agent.NewAnthropic(p, o.HTTPClient), nil
	case "openai":
		p.APIKey, p.BaseURL = o.OpenAIAPIKey, o.OpenAIBaseURL
		if p.APIKey == "" && p.BaseURL == "" {
			return nil, fmt.Errorf("model: the openai provider needs %s, or %s for a local server", EnvOpenAIKey, EnvOpenAIBaseURL)
		}
		if p.APIKey == "" {
			p.APIKey = "none" // local servers take any key
		}
		return agent.NewOpenAI(p, o.HTTPClient), nil
	}
	return nil, fmt.Errorf("model: provider %q is not known; use anthropic or openai", kind)
}
