package model

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// Chat is a model that holds a conversation with tools: the loop of a
// subagent (the Task tool) asks it for one turn at a time. A Model that also
// implements Chat can run subagents. Chat must honour ctx's cancellation
// and is called from several goroutines at once.
type Chat interface {
	Chat(ctx context.Context, req *Request) (*Reply, error)
}

// ChatFunc adapts a function to Chat.
type ChatFunc func(ctx context.Context, req *Request) (*Reply, error)

// Chat calls f.
func (f ChatFunc) Chat(ctx context.Context, req *Request) (*Reply, error) { return f(ctx, req) }

// Complete implements Model with one turn and no tools, so that a ChatFunc
// also answers web_fetch's prompt.
func (f ChatFunc) Complete(ctx context.Context, system, prompt string) (string, error) {
	return CompleteWith(ctx, f, system, prompt)
}

// CompleteWith asks c one question with no tools and returns the text of
// its answer.
func CompleteWith(ctx context.Context, c Chat, system, prompt string) (string, error) {
	r, err := c.Chat(ctx, &Request{System: system, MaxTokens: 4096, Small: true,
		Messages: []Message{{Role: User, Content: []Block{{Type: Text, Text: prompt}}}}})
	if err != nil {
		return "", err
	}
	if t := r.Text(); t != "" {
		return t, nil
	}
	return "", errors.New("the model answered with no text")
}

// Role is who speaks a message.
type Role string

// The roles of a conversation.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// The types of a Block.
const (
	Text       = "text"
	ToolUse    = "tool_use"
	ToolResult = "tool_result"
)

// Request is one turn asked of a Chat.
type Request struct {
	// Model names the model the agent type asks for ("" the provider's
	// configured default). Claude Code's aliases sonnet, opus and haiku
	// are passed as they are; the provider maps them.
	Model string
	// Small asks for the provider's small, fast model when Model is ""
	// (web_fetch's question about one page).
	Small bool
	// System is the system prompt.
	System string
	// Messages are the conversation so far, starting with the user's.
	Messages []Message
	// Tools the model may call.
	Tools []ToolDef
	// MaxTokens bounds the answer.
	MaxTokens int64
}

// Message is one message of a conversation.
type Message struct {
	Role    Role
	Content []Block
}

// Block is one piece of a message: text, a tool call the model makes
// (tool_use) or the result of one (tool_result).
type Block struct {
	// Type is Text, ToolUse or ToolResult.
	Type string
	// Text is a text block's text, or a tool result's text.
	Text string
	// ID identifies a tool_use; a tool_result names the tool_use it
	// answers.
	ID string
	// Name is the tool a tool_use calls.
	Name string
	// Input is a tool_use's arguments, a JSON object.
	Input json.RawMessage
	// IsError marks a tool_result that failed.
	IsError bool
}

// ToolDef is a tool as the model sees it.
type ToolDef struct {
	Name        string
	Description string
	// InputSchema is a JSON Schema object.
	InputSchema json.RawMessage
}

// Reply is the model's turn.
type Reply struct {
	// Content is the answer: text and tool calls.
	Content []Block
	// StopReason is why the model stopped, in the provider's words
	// (end_turn, tool_use, max_tokens, stop, ...).
	StopReason string
	// Model is the model that answered, when the provider says.
	Model string
	// Usage counts tokens, when the provider gives them.
	Usage Usage
}

// Usage is what one or more turns cost.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens}
}

// Text returns the text blocks of the reply, joined by newlines.
func (r *Reply) Text() string {
	var parts []string
	for _, b := range r.Content {
		if b.Type == Text && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolCalls returns the reply's tool_use blocks.
func (r *Reply) ToolCalls() []Block {
	var out []Block
	for _, b := range r.Content {
		if b.Type == ToolUse {
			out = append(out, b)
		}
	}
	return out
}
