package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// remoteTool is another server's tool as a Hands tool: the remote name,
// schemas, description and annotations as given, under the qualified name.
type remoteTool struct {
	srv    *server
	remote string
	info   tool.Info
	check  *tool.ArgsChecker
}

// wrap makes the Hands tool for one remote tool of s.
func wrap(s *server, t *mcp.Tool) (*remoteTool, error) {
	q := Qualify(t.Name)
	if q == "" {
		return nil, fmt.Errorf("the name has no letter or digit")
	}
	name := s.prefix + q
	if !tool.ValidName(name) {
		return nil, fmt.Errorf("the qualified name %s is longer than 64 characters", name)
	}
	in, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil {
		return nil, fmt.Errorf("no usable input schema")
	}
	check, err := tool.NewArgsChecker(name, in)
	if err != nil {
		return nil, err
	}
	info := tool.Info{Name: name, Title: t.Title, Description: t.Description, InputSchema: in, OpenWorld: true, Destructive: true}
	if t.OutputSchema != nil {
		if info.OutputSchema, err = json.Marshal(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("output schema: %v", err)
		}
	}
	// MCP's defaults for absent hints: not read-only, destructive, not
	// idempotent, open world.
	if a := t.Annotations; a != nil {
		if info.Title == "" {
			info.Title = a.Title
		}
		info.ReadOnly = a.ReadOnlyHint
		info.Idempotent = a.IdempotentHint
		if a.DestructiveHint != nil {
			info.Destructive = *a.DestructiveHint
		}
		if a.OpenWorldHint != nil {
			info.OpenWorld = *a.OpenWorldHint
		}
	}
	if info.ReadOnly {
		info.Destructive = false
	}
	return &remoteTool{srv: s, remote: t.Name, info: info, check: check}, nil
}

// input is a remote call's arguments, checked against the remote schema
// and sent as the model gave them.
type input struct {
	raw json.RawMessage
}

func (t *remoteTool) Info() tool.Info { return t.info }

func (t *remoteTool) Decode(raw json.RawMessage) (any, error) {
	if _, err := t.check.Check(t.info.Name, raw); err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(string(raw))) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	return input{raw: raw}, nil
}

// ConcurrencySafe: a tool the server declares read-only may run beside
// other safe calls.
func (t *remoteTool) ConcurrencySafe(any) bool { return t.info.ReadOnly }

func (t *remoteTool) Resolve(_ context.Context, _ *tool.Env, in any) (any, error) { return in, nil }

func (t *remoteTool) Validate(_ context.Context, _ *tool.Env, in any) (any, error) { return in, nil }

func (t *remoteTool) Run(ctx context.Context, _ *tool.Env, in any) (any, error) {
	v, ok := in.(input)
	if !ok {
		return nil, tool.Errorf(tool.InternalError, "%s: input of type %T", t.info.Name, in)
	}
	res, err := t.srv.call(ctx, t.remote, v.raw)
	if err != nil {
		return nil, err
	}
	out := &Output{Blocks: convert(res.Content), Structured: res.StructuredContent}
	if res.IsError {
		msg := strings.TrimSpace(textOf(out.Blocks))
		if msg == "" {
			msg = "no message"
		}
		return nil, tool.Errorf(tool.MCPServerError, "MCP server %s: %s failed: %s", t.srv.cfg.Name, t.remote, msg).With("server", t.srv.cfg.Name)
	}
	return out, nil
}

// Output is a remote call's result, passed through: its content blocks and
// its structured content (nil when the server sent none).
type Output struct {
	Blocks     []tool.Content
	Structured any
}

// Content returns the blocks the server sent.
func (o *Output) Content() []tool.Content { return o.Blocks }

// StructuredContent returns the server's structured content.
func (o *Output) StructuredContent() any { return o.Structured }

// convert maps MCP content blocks to Hands's: text and images as they
// are; audio, resource links and embedded resources as text that says
// what they are (the text of an embedded text resource itself).
func convert(cs []mcp.Content) []tool.Content {
	out := []tool.Content{}
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			out = append(out, tool.Text(c.Text))
		case *mcp.ImageContent:
			out = append(out, tool.Image(c.Data, c.MIMEType))
		case *mcp.AudioContent:
			out = append(out, tool.Text(fmt.Sprintf("[audio: %s, %d bytes, not shown]", c.MIMEType, len(c.Data))))
		case *mcp.ResourceLink:
			out = append(out, tool.Text(fmt.Sprintf("[resource link: %s %s]", c.URI, c.Name)))
		case *mcp.EmbeddedResource:
			switch r := c.Resource; {
			case r == nil:
			case r.Text != "":
				out = append(out, tool.Text(r.Text))
			default:
				out = append(out, tool.Text(fmt.Sprintf("[resource %s: %s, %d bytes, not shown]", r.URI, r.MIMEType, len(r.Blob))))
			}
		default:
			b, _ := json.Marshal(c)
			out = append(out, tool.Text(string(b)))
		}
	}
	return out
}

func textOf(cs []tool.Content) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}
