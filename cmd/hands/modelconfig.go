package main

import "github.com/hands-dev/hands"

// modelConfig is the "model" section of --config: the model API that runs
// subagents (Task) and answers web_fetch's prompt, with the environment
// variables' names as keys; a key left out comes from the environment.
type modelConfig struct {
	Provider         string            `json:"provider"`
	AnthropicAPIKey  string            `json:"ANTHROPIC_API_KEY"`
	AnthropicBaseURL string            `json:"ANTHROPIC_BASE_URL"`
	OpenAIAPIKey     string            `json:"OPENAI_API_KEY"`
	OpenAIBaseURL    string            `json:"OPENAI_BASE_URL"`
	Model            string            `json:"model"`
	SmallModel       string            `json:"small_model"`
	Agents           map[string]string `json:"agents"`
	MaxTurns         int               `json:"max_turns"`
	MaxDepth         int               `json:"max_depth"`
}

// options returns the section as runtime options.
func (m modelConfig) options() hands.ModelOptions {
	return hands.ModelOptions{
		Provider: m.Provider, AnthropicAPIKey: m.AnthropicAPIKey, AnthropicBaseURL: m.AnthropicBaseURL,
		OpenAIAPIKey: m.OpenAIAPIKey, OpenAIBaseURL: m.OpenAIBaseURL, Model: m.Model, SmallModel: m.SmallModel,
		Agents: m.Agents, MaxTurns: m.MaxTurns, MaxDepth: m.MaxDepth,
	}
}
