package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hands-dev/hands/model"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI is a model behind an OpenAI-compatible Chat Completions API
// (OpenAI, or a local server such as Ollama, vLLM or llama.cpp at a base
// URL), through the official Go SDK. Turns are streamed.
type OpenAI struct {
	client openai.ChatCompletionService
	cfg    Provider
}

// NewOpenAI returns a Chat Completions API as a model. hc, when non-nil,
// replaces the HTTP client (tests).
func NewOpenAI(cfg Provider, hc *http.Client) *OpenAI {
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey), option.WithMaxRetries(2)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	// The Chat Completions service alone, built as openai.NewClient builds
	// its Chat.Completions (the environment's defaults, then opts, in the
	// same two layers): a Client would link every service of the API
	// (images, audio, realtime, ...) into the binary, which every start of
	// hands maps and partly faults in.
	chat := openai.NewChatService(append(openai.DefaultClientOptions(), opts...)...)
	return &OpenAI{client: openai.NewChatCompletionService(chat.Options...), cfg: cfg}
}

// Complete implements model.Model.
func (o *OpenAI) Complete(ctx context.Context, system, prompt string) (string, error) {
	return model.CompleteWith(ctx, o, system, prompt)
}

// Chat implements model.Chat.
func (o *OpenAI) Chat(ctx context.Context, req *model.Request) (*model.Reply, error) {
	params := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(o.cfg.modelFor(req)),
		MaxCompletionTokens: param.NewOpt(maxTokens(req)),
		StreamOptions:       openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		if m.Role == model.Assistant {
			var a openai.ChatCompletionAssistantMessageParam
			text := ""
			for _, b := range m.Content {
				switch b.Type {
				case model.Text:
					text += b.Text
				case model.ToolUse:
					a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: b.ID, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: b.Name, Arguments: string(orEmptyObject(b.Input))},
					}})
				}
			}
			if text != "" {
				a.Content.OfString = param.NewOpt(text)
			}
			params.Messages = append(params.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
			continue
		}
		// A user turn: tool results become tool messages, in order, and
		// the text after them one user message.
		text := ""
		for _, b := range m.Content {
			switch b.Type {
			case model.ToolResult:
				content := b.Text
				if b.IsError {
					content = "Error: " + content
				}
				params.Messages = append(params.Messages, openai.ToolMessage(content, b.ID))
			case model.Text:
				text += b.Text
			}
		}
		if text != "" {
			params.Messages = append(params.Messages, openai.UserMessage(text))
		}
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		delete(schema, "$schema")
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: param.NewOpt(t.Description), Parameters: shared.FunctionParameters(schema),
		}))
	}
	stream := o.client.NewStreaming(ctx, params)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		return nil, o.cfg.scrub(fmt.Errorf("openai: %w", err))
	}
	out := &model.Reply{Model: acc.Model, Usage: model.Usage{InputTokens: acc.Usage.PromptTokens, OutputTokens: acc.Usage.CompletionTokens}}
	if len(acc.Choices) == 0 {
		return nil, fmt.Errorf("openai: the server answered with no choice")
	}
	ch := acc.Choices[0]
	out.StopReason = ch.FinishReason
	if ch.Message.Content != "" {
		out.Content = append(out.Content, model.Block{Type: model.Text, Text: ch.Message.Content})
	}
	for _, tc := range ch.Message.ToolCalls {
		args := json.RawMessage(tc.Function.Arguments)
		if !json.Valid(args) {
			// The model wrote broken JSON; the tool refuses it as
			// invalid input and the model reads why.
			args, _ = json.Marshal(map[string]string{"_unparsed_arguments": tc.Function.Arguments})
		}
		out.Content = append(out.Content, model.Block{Type: model.ToolUse, ID: tc.ID, Name: tc.Function.Name, Input: args})
	}
	return out, nil
}
