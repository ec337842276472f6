package agent

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hands-dev/hands/model"
)

// Transcript writes a subagent's conversation as JSON lines, one a
// message, in the shape of Claude Code 2.1.7's sidechain transcripts: the
// output_file of a background agent there is its transcript, which
// TaskOutput returns and the model reads with Read or `tail` while the
// agent runs (measured with ../shared/oracles/claude). Fields Claude Code
// fills from state Hands does not have (the plan slug, the git branch, the
// API's message and request ids) are left out rather than invented.
type Transcript struct {
	// W receives the lines; a write that fails ends the transcript (the
	// agent runs on; Err reports the failure).
	W io.Writer
	// AgentID, SessionID, Cwd and Version fill every line's header.
	AgentID, SessionID, Cwd, Version string

	mu     sync.Mutex
	parent string
	err    error
}

// head is the part of a line that every line has, in Claude Code's order.
type head struct {
	ParentUUID  *string `json:"parentUuid"`
	IsSidechain bool    `json:"isSidechain"`
	UserType    string  `json:"userType"`
	Cwd         string  `json:"cwd"`
	SessionID   string  `json:"sessionId"`
	Version     string  `json:"version"`
	AgentID     string  `json:"agentId"`
}

type userLine struct {
	head
	Type      string   `json:"type"`
	Message   userBody `json:"message"`
	UUID      string   `json:"uuid"`
	Timestamp string   `json:"timestamp"`
}

type userBody struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type assistantLine struct {
	head
	Message   assistantBody `json:"message"`
	Type      string        `json:"type"`
	UUID      string        `json:"uuid"`
	Timestamp string        `json:"timestamp"`
}

type assistantBody struct {
	Type         string    `json:"type"`
	Role         string    `json:"role"`
	Model        string    `json:"model,omitempty"`
	Content      []block   `json:"content"`
	StopReason   string    `json:"stop_reason,omitempty"`
	StopSequence *string   `json:"stop_sequence"`
	Usage        lineUsage `json:"usage"`
}

type lineUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// block is a content block as the Messages API spells it.
type block struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitzero"`
}

// Record writes m (r is the model's turn for an assistant message); it
// suits Loop.Record.
func (t *Transcript) Record(m model.Message, r *model.Reply) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	id := newUUID()
	h := head{IsSidechain: true, UserType: "external", Cwd: t.Cwd, SessionID: t.SessionID, Version: t.Version, AgentID: t.AgentID}
	if t.parent != "" {
		p := t.parent
		h.ParentUUID = &p
	}
	ts := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	var line any
	if m.Role == model.Assistant {
		body := assistantBody{Type: "message", Role: "assistant", Content: blocks(m.Content)}
		if r != nil {
			body.Model, body.StopReason = r.Model, r.StopReason
			body.Usage = lineUsage{r.Usage.InputTokens, r.Usage.OutputTokens}
		}
		line = assistantLine{head: h, Message: body, Type: "assistant", UUID: id, Timestamp: ts}
	} else {
		var content any = blocks(m.Content)
		if len(m.Content) == 1 && m.Content[0].Type == model.Text {
			content = m.Content[0].Text // the prompt, a plain string as Claude Code writes it
		}
		line = userLine{head: h, Type: "user", Message: userBody{Role: "user", Content: content}, UUID: id, Timestamp: ts}
	}
	b, err := json.Marshal(line)
	if err == nil {
		_, err = t.W.Write(append(b, '\n'))
	}
	if err != nil {
		t.err = fmt.Errorf("writing agent %s's transcript: %w", t.AgentID, err)
		return
	}
	t.parent = id
}

// Err reports a write that failed.
func (t *Transcript) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

func blocks(bs []model.Block) []block {
	out := make([]block, 0, len(bs))
	for _, b := range bs {
		switch b.Type {
		case model.Text:
			out = append(out, block{Type: "text", Text: &b.Text})
		case model.ToolUse:
			in := b.Input
			if !json.Valid(in) {
				in, _ = json.Marshal(string(b.Input))
			}
			out = append(out, block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: in})
		case model.ToolResult:
			out = append(out, block{Type: "tool_result", ToolUseID: b.ID, Content: &b.Text, IsError: b.IsError})
		}
	}
	return out
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
