package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// ErrMaxTurns ends a loop whose turns ran out before the model gave its
// answer.
var ErrMaxTurns = errors.New("the agent used all its turns without giving its answer")

// Loop is one subagent's conversation.
type Loop struct {
	// Chat is the model.
	Chat model.Chat
	// Model is the model name to ask for ("" the provider's default).
	Model string
	// System is the system prompt.
	System string
	// Tools are the tools the model may call.
	Tools []tool.Info
	// Exec runs one turn's tool calls as a batch through the host's
	// pipeline and returns their results in call order.
	Exec func(ctx context.Context, calls []tool.Call) []tool.Result
	// MaxTurns bounds the model's turns.
	MaxTurns int
	// Progress, when set, hears of each turn.
	Progress func(message string)
	// Record, when set, hears of each message as it joins the
	// conversation: the prompt, each reply (with r, the model's turn) and
	// each turn's tool results (r nil). A background agent's transcript
	// (see Transcript) is written this way.
	Record func(m model.Message, r *model.Reply)

	// Messages are the conversation so far; Run appends to it, so a
	// later Run continues the conversation (Task's resume).
	Messages []model.Message
}

// Outcome is what a loop produced.
type Outcome struct {
	// Text is the model's final answer.
	Text string
	// Usage adds up every turn's tokens, where the model gave them.
	Usage model.Usage
	// Turns and ToolUses count the model's turns and tool calls.
	Turns, ToolUses int
}

// Run sends prompt as the next user message and loops until the model
// answers without calling a tool, the turns run out (ErrMaxTurns, with the
// outcome so far), the model fails, or ctx ends.
func (l *Loop) Run(ctx context.Context, prompt string) (Outcome, error) {
	var out Outcome
	defs := make([]model.ToolDef, len(l.Tools))
	for i, t := range l.Tools {
		defs[i] = model.ToolDef{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
	}
	l.add(model.Message{Role: model.User, Content: []model.Block{{Type: model.Text, Text: prompt}}}, nil)
	for out.Turns < l.MaxTurns {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		reply, err := l.Chat.Chat(ctx, &model.Request{Model: l.Model, System: l.System, Messages: l.Messages, Tools: defs})
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("asking the model (turn %d): %w", out.Turns+1, err)
		}
		out.Turns++
		out.Usage = out.Usage.Add(reply.Usage)
		l.add(model.Message{Role: model.Assistant, Content: reply.Content}, reply)
		uses := reply.ToolCalls()
		if len(uses) == 0 {
			out.Text = reply.Text()
			return out, nil
		}
		out.ToolUses += len(uses)
		calls := make([]tool.Call, len(uses))
		names := make([]string, len(uses))
		for i, u := range uses {
			calls[i] = tool.Call{ID: u.ID, Name: u.Name, Input: u.Input}
			names[i] = u.Name
		}
		if l.Progress != nil {
			l.Progress(fmt.Sprintf("turn %d: %s", out.Turns, strings.Join(names, ", ")))
		}
		results := l.Exec(ctx, calls)
		if err := ctx.Err(); err != nil {
			return out, err
		}
		blocks := make([]model.Block, len(uses))
		for i, u := range uses {
			blocks[i] = model.Block{Type: model.ToolResult, ID: u.ID, Text: resultText(results[i]), IsError: results[i].IsError}
		}
		l.add(model.Message{Role: model.User, Content: blocks}, nil)
	}
	// The last answer's text, if any, is what the agent got to.
	for i := len(l.Messages) - 1; i >= 0; i-- {
		if m := l.Messages[i]; m.Role == model.Assistant {
			out.Text = (&model.Reply{Content: m.Content}).Text()
			break
		}
	}
	return out, ErrMaxTurns
}

// add appends m to the conversation and tells Record.
func (l *Loop) add(m model.Message, r *model.Reply) {
	l.Messages = append(l.Messages, m)
	if l.Record != nil {
		l.Record(m, r)
	}
}

// resultText is a result as the model reads it: its text blocks, images
// named.
func resultText(r tool.Result) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "image" {
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data)))
			continue
		}
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}
