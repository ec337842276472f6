package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// userInput names the input request of a tool that asks its user (plan
// approval, questions).
const userInput = "user"

// The form fields of a plan approval.
const (
	approveField  = "approve"
	feedbackField = "feedback"
)

// otherSuffix names the free-text field beside each question.
const otherSuffix = "_other"

// askUser asks the client's user a tool's prompt as a form-mode
// elicitation: a plan as approve (yes/no) and feedback; questions as one
// enum field per question (an array of enums for a multiple choice) and a
// free-text field for an answer of the user's own. Decline and cancel are
// a rejection the model reads.
func askUser(ctx context.Context, p tool.Prompt) (tool.Reply, error) {
	st, ok := ctx.Value(askKey{}).(*askState)
	if !ok {
		return tool.Reply{}, fmt.Errorf("%w: the call did not come from an MCP client", tool.ErrNoUser)
	}
	if r, ok := st.responses[userInput].(*mcp.ElicitResult); ok {
		return reply(p, r), nil
	}
	if !st.canElicit() {
		return tool.Reply{}, fmt.Errorf("%w: the MCP client does not support elicitation", tool.ErrNoUser)
	}
	return tool.Reply{}, st.need(userInput, form(p))
}

// form is the elicitation of a prompt.
func form(p tool.Prompt) *mcp.ElicitParams {
	props := map[string]any{}
	var required []string
	msg := p.Message
	if len(p.Questions) == 0 {
		msg += "\n\n" + p.Plan
		props[approveField] = map[string]any{"type": "boolean", "title": "Approve the plan", "default": true}
		props[feedbackField] = map[string]any{"type": "string", "title": "Feedback", "description": "what to change, when you do not approve"}
		required = []string{approveField}
	}
	for i, q := range p.Questions {
		key := fmt.Sprintf("q%d", i+1)
		var labels []string
		var lines []string
		for _, o := range q.Options {
			labels = append(labels, o.Label)
			lines = append(lines, fmt.Sprintf("  - %s: %s", o.Label, o.Description))
		}
		msg += fmt.Sprintf("\n\n%d. [%s] %s\n%s", i+1, q.Header, q.Question, strings.Join(lines, "\n"))
		enum := map[string]any{"type": "string", "enum": labels}
		if q.MultiSelect {
			props[key] = map[string]any{"type": "array", "title": q.Question, "items": map[string]any{"type": "string", "enum": labels}}
		} else {
			enum["title"] = q.Question
			props[key] = enum
		}
		props[key+otherSuffix] = map[string]any{"type": "string", "title": "Other: your own answer to " + q.Header, "description": "replaces the choice above when filled"}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if required != nil {
		schema["required"] = required
	}
	return &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: schema}
}

// reply reads the client's answer to a prompt's form.
func reply(p tool.Prompt, r *mcp.ElicitResult) tool.Reply {
	if r.Action != "accept" {
		return tool.Reply{}
	}
	if len(p.Questions) == 0 {
		approved, _ := r.Content[approveField].(bool)
		feedback, _ := r.Content[feedbackField].(string)
		return tool.Reply{Accepted: approved, Feedback: strings.TrimSpace(feedback)}
	}
	out := tool.Reply{Accepted: true, Answers: map[string]string{}}
	for i, q := range p.Questions {
		key := fmt.Sprintf("q%d", i+1)
		if other, _ := r.Content[key+otherSuffix].(string); strings.TrimSpace(other) != "" {
			out.Answers[q.Question] = strings.TrimSpace(other)
			continue
		}
		switch v := r.Content[key].(type) {
		case string:
			out.Answers[q.Question] = v
		case []any:
			var labels []string
			for _, x := range v {
				if s, ok := x.(string); ok {
					labels = append(labels, s)
				}
			}
			out.Answers[q.Question] = strings.Join(labels, ", ")
		}
	}
	return out
}
