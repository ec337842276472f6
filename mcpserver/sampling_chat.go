//lint:file-ignore SA1019 sampling is deprecated as of protocol version 2026-07-28 (SEP-2577) but remains how an MCP server reaches the client's model during the deprecation window.

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hands-dev/hands/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agentMaxTokens bounds one turn of a subagent asked through sampling.
const agentMaxTokens = 8192

var _ model.Chat = samplingModel{}

// Chat implements model.Chat with sampling/createMessage and tools
// (protocol 2025-11-25): a subagent's turn, asked of the client's model
// while the task call runs. Clients on protocol 2026-07-28 take no request
// during a call (SEP-2322): the call waits parked, and the turn goes to the
// client as an input request in the call's result (see agent_rounds.go).
func (m samplingModel) Chat(ctx context.Context, req *model.Request) (*model.Reply, error) {
	params := &mcp.CreateMessageWithToolsParams{
		SystemPrompt: req.System,
		MaxTokens:    req.MaxTokens,
		ToolChoice:   &mcp.ToolChoice{Mode: "auto"},
	}
	if params.MaxTokens <= 0 {
		params.MaxTokens = agentMaxTokens
	}
	if req.Model != "" {
		params.ModelPreferences = &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: req.Model}}}
	}
	for _, msg := range req.Messages {
		sm := &mcp.SamplingMessageV2{Role: mcp.Role(msg.Role)}
		for _, b := range msg.Content {
			switch b.Type {
			case model.Text:
				sm.Content = append(sm.Content, &mcp.TextContent{Text: b.Text})
			case model.ToolUse:
				var in map[string]any
				if len(b.Input) > 0 {
					if err := json.Unmarshal(b.Input, &in); err != nil {
						in = map[string]any{"_unparsed_arguments": string(b.Input)}
					}
				}
				sm.Content = append(sm.Content, &mcp.ToolUseContent{ID: b.ID, Name: b.Name, Input: in})
			case model.ToolResult:
				sm.Content = append(sm.Content, &mcp.ToolResultContent{ToolUseID: b.ID, Content: []mcp.Content{&mcp.TextContent{Text: b.Text}}, IsError: b.IsError})
			}
		}
		params.Messages = append(params.Messages, sm)
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	var r *mcp.CreateMessageWithToolsResult
	var err error
	if p, ok := ctx.Value(parkedKey{}).(*parkedCall); ok {
		r, err = p.ask(ctx, params)
	} else {
		r, err = m.ss.CreateMessageWithTools(ctx, params)
	}
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	out := &model.Reply{StopReason: r.StopReason, Model: r.Model}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			out.Content = append(out.Content, model.Block{Type: model.Text, Text: c.Text})
		case *mcp.ToolUseContent:
			in, err := json.Marshal(c.Input)
			if err != nil {
				return nil, fmt.Errorf("sampling: tool call %s: %w", c.Name, err)
			}
			out.Content = append(out.Content, model.Block{Type: model.ToolUse, ID: c.ID, Name: c.Name, Input: in})
		}
	}
	if len(out.Content) == 0 {
		return nil, errors.New("sampling: the client's model answered with neither text nor a tool call")
	}
	return out, nil
}

// offersAgentSampling reports whether the client of ss can run a
// subagent's turns: it answers sampling with tools (asked while the call
// waits before protocol 2026-07-28, in the call's rounds from it on).
func offersAgentSampling(ss *mcp.ServerSession) bool {
	return offersSampling(ss) && ss.InitializeParams().Capabilities.Sampling.Tools != nil
}

// samplingCompleter asks the client's model single questions only.
type samplingCompleter struct{ m samplingModel }

// Complete implements model.Model.
func (c samplingCompleter) Complete(ctx context.Context, system, prompt string) (string, error) {
	return c.m.Complete(ctx, system, prompt)
}
