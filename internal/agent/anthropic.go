package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/hands-dev/hands/model"
)

// Anthropic is a model behind the Anthropic Messages API (or a server that
// speaks it), through the official Go SDK. Turns are streamed.
type Anthropic struct {
	client anthropic.MessageService
	cfg    Provider
}

// NewAnthropic returns the Anthropic Messages API as a model. hc, when
// non-nil, replaces the HTTP client (tests).
func NewAnthropic(cfg Provider, hc *http.Client) *Anthropic {
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey), option.WithMaxRetries(2)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	// The environment's defaults (ANTHROPIC_*), then opts, which win (the
	// configuration already read them): what anthropic.NewClient gives its
	// Messages service, without a Client, which would link every service of
	// the API into the binary.
	return &Anthropic{client: anthropic.NewMessageService(append(anthropic.DefaultClientOptions(), opts...)...), cfg: cfg}
}

// Complete implements model.Model.
func (a *Anthropic) Complete(ctx context.Context, system, prompt string) (string, error) {
	return model.CompleteWith(ctx, a, system, prompt)
}

// Chat implements model.Chat.
func (a *Anthropic) Chat(ctx context.Context, req *model.Request) (*model.Reply, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(a.cfg.modelFor(req)),
		MaxTokens: maxTokens(req),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		for _, b := range m.Content {
			switch b.Type {
			case model.Text:
				blocks = append(blocks, anthropic.NewTextBlock(b.Text))
			case model.ToolUse:
				blocks = append(blocks, anthropic.NewToolUseBlock(b.ID, json.RawMessage(orEmptyObject(b.Input)), b.Name))
			case model.ToolResult:
				blocks = append(blocks, anthropic.NewToolResultBlock(b.ID, b.Text, b.IsError))
			}
		}
		if m.Role == model.Assistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(blocks...))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(blocks...))
		}
	}
	for _, t := range req.Tools {
		var schema struct {
			Properties any      `json:"properties"`
			Required   []string `json:"required"`
		}
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		tp := &anthropic.ToolParam{Name: t.Name, InputSchema: anthropic.ToolInputSchemaParam{Properties: schema.Properties, Required: schema.Required}}
		tp.Description = anthropic.String(t.Description)
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: tp})
	}
	stream := a.client.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			return nil, a.cfg.scrub(fmt.Errorf("anthropic: reading the answer: %w", err))
		}
	}
	if err := stream.Err(); err != nil {
		return nil, a.cfg.scrub(fmt.Errorf("anthropic: %w", err))
	}
	out := &model.Reply{StopReason: string(msg.StopReason), Model: string(msg.Model),
		Usage: model.Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens}}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			out.Content = append(out.Content, model.Block{Type: model.Text, Text: b.Text})
		case "tool_use":
			out.Content = append(out.Content, model.Block{Type: model.ToolUse, ID: b.ID, Name: b.Name, Input: append(json.RawMessage(nil), b.Input...)})
		}
	}
	return out, nil
}

// orEmptyObject returns in, or {} when it is empty.
func orEmptyObject(in json.RawMessage) []byte {
	if len(in) == 0 {
		return []byte("{}")
	}
	return in
}

// maxTokens is the request's bound, or a default that leaves room for a
// subagent's report.
func maxTokens(req *model.Request) int64 {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return 8192
}
