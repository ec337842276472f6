// Package model is the one interface Hands asks a language model through:
// a tool that needs a model's reading of something too large for the
// caller's context (web_fetch's prompt, later subagents) calls Complete.
//
// Hands brings no model of its own. A host sets hands.Options.Model; the
// MCP server asks the client's model through MCP sampling when the client
// offers it. The package promises only the interface and its adapter; it
// knows nothing of providers.
package model

import "context"

// Model answers one prompt. Complete sends system (possibly empty) and
// prompt as one user turn and returns the model's text. It must honour
// ctx's cancellation and is called from several goroutines at once.
type Model interface {
	Complete(ctx context.Context, system, prompt string) (string, error)
}

// Func adapts a function to Model.
type Func func(ctx context.Context, system, prompt string) (string, error)

// Complete calls f.
func (f Func) Complete(ctx context.Context, system, prompt string) (string, error) {
	return f(ctx, system, prompt)
}
