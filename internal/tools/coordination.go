package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hands-dev/hands/coord"
	"github.com/hands-dev/hands/tool"
)

// Coordination is a session's place among other loops (seed 004): its
// coordinator membership, the queries it has received and not yet
// answered, and whether its task is complete.
type Coordination struct {
	Member coord.Member
	// OnComplete, when set, hears complete_task's summary.
	OnComplete func(summary string)

	mu       sync.Mutex
	pending  map[string]coord.Message // received queries by id
	complete bool
	summary  string
}

// Received records a query so that reply_query can answer it.
func (c *Coordination) Received(m coord.Message) {
	if m.Kind != coord.KindQuery {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = map[string]coord.Message{}
	}
	c.pending[m.ID] = m
}

// Answer replies to a received query once.
func (c *Coordination) Answer(id, answer string) error {
	c.mu.Lock()
	m, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("no query %q is waiting for a reply", id)
	}
	return m.Reply(answer)
}

// Complete records that the task is complete.
func (c *Coordination) Complete(summary string) {
	c.mu.Lock()
	c.complete, c.summary = true, summary
	on := c.OnComplete
	c.mu.Unlock()
	if on != nil {
		on(summary)
	}
}

// Completed reports whether complete_task was called, and its summary.
func (c *Coordination) Completed() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.summary, c.complete
}

// coordination returns the session's coordination, or the error a call
// without a coordinator gets.
func coordination(env *tool.Env, name string) (*Coordination, *tool.Error) {
	st := stateOf(env)
	if st.Coordination == nil || st.Coordination.Member == nil {
		return nil, toolErr(tool.NoCoordinator, "%s needs a coordinator, and this session has none: start the server with --coordinator (local or nats://host:4222) and an --exec-id", tool.ToolName(name))
	}
	return st.Coordination, nil
}

// coordErr maps a coordinator error to a coded error naming the target.
func coordErr(err error, target string) *tool.Error {
	var te *coord.TargetError
	if errors.As(err, &te) {
		target = te.Target
	}
	switch {
	case errors.Is(err, coord.ErrUnknown):
		return toolErr(tool.LoopNotFound, "no loop with execution id %q is running; check the id with the loop that gave it", target)
	case errors.Is(err, coord.ErrEnded):
		return toolErr(tool.LoopEnded, "the loop %q has ended and can no longer answer", target)
	case errors.Is(err, coord.ErrTimeout):
		return toolErr(tool.LoopTimeout, "%v; ask again with a longer %s, or go on without the answer", err, param("timeout_ms"))
	case errors.Is(err, context.Canceled):
		return toolErr(tool.Canceled, "canceled")
	}
	return toolErr(tool.IOError, "coordinator: %v", err)
}

// QueryLoopInput is the input of query_loop.
type QueryLoopInput struct {
	TargetExecID string `json:"target_exec_id" jsonschema:"Execution ID of the loop to query"`
	Question     string `json:"question" jsonschema:"Question to ask"`
	TimeoutMS    int64  `json:"timeout_ms,omitempty" jsonschema:"Timeout for reply (default: 30000)"`
}

// TextOutput is a result that is one text.
type TextOutput struct {
	Text string `json:"text"`
}

// Content is the text.
func (o *TextOutput) Content() []tool.Content { return []tool.Content{tool.Text(o.Text)} }

// maxQueryTimeout bounds how long query_loop waits.
const maxQueryTimeout = 10 * time.Minute

// QueryLoop returns the query_loop tool.
func QueryLoop() tool.Tool {
	return tool.New(tool.Spec[QueryLoopInput]{
		Name:        "query_loop",
		Title:       "Ask another loop",
		Description: "Ask another running loop a question. Returns their reply.",
		ReadOnly:    true,
		OpenWorld:   true,
		Validate: func(_ context.Context, _ *tool.Env, in QueryLoopInput) (QueryLoopInput, error) {
			if in.TimeoutMS < 0 || in.TimeoutMS > maxQueryTimeout.Milliseconds() {
				return in, toolErr(tool.InvalidInput, "%s is %d; give 1 to %d milliseconds, or leave it out for 30000", param("timeout_ms"), in.TimeoutMS, maxQueryTimeout.Milliseconds())
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in QueryLoopInput) (*TextOutput, error) {
		c, terr := coordination(env, "query_loop")
		if terr != nil {
			return nil, terr
		}
		timeout := 30 * time.Second
		if in.TimeoutMS > 0 {
			timeout = time.Duration(in.TimeoutMS) * time.Millisecond
		}
		reply, err := c.Member.Query(ctx, in.TargetExecID, in.Question, timeout)
		if err != nil {
			return nil, coordErr(err, in.TargetExecID)
		}
		return &TextOutput{Text: reply}, nil
	})
}

// ShareDataInput is the input of share_data.
type ShareDataInput struct {
	TargetExecIDs []string `json:"target_exec_ids" jsonschema:"Execution IDs of loops to share with"`
	DataType      string   `json:"data_type" jsonschema:"Type of data (e.g., 'api_schema', 'config')"`
	Data          any      `json:"data" jsonschema:"Data to share (JSON)"`
}

// ShareData returns the share_data tool.
func ShareData() tool.Tool {
	return tool.New(tool.Spec[ShareDataInput]{
		Name:        "share_data",
		Title:       "Share data with other loops",
		Description: "Share data with other loops (e.g., API schemas, config values).",
		OpenWorld:   true,
		Validate: func(_ context.Context, _ *tool.Env, in ShareDataInput) (ShareDataInput, error) {
			if in.Data == nil {
				return in, toolErr(tool.InvalidInput, "%s is missing or null; give the JSON value to share", param("data"))
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in ShareDataInput) (*TextOutput, error) {
		c, terr := coordination(env, "share_data")
		if terr != nil {
			return nil, terr
		}
		data, err := json.Marshal(in.Data)
		if err != nil {
			return nil, toolErr(tool.InvalidInput, "%s cannot be encoded: %v", param("data"), err)
		}
		if err := c.Member.Share(ctx, in.TargetExecIDs, in.DataType, data); err != nil {
			return nil, coordErr(err, "")
		}
		return &TextOutput{Text: fmt.Sprintf("Shared %s to %d loops", in.DataType, len(in.TargetExecIDs))}, nil
	})
}

// CompleteTaskInput is the input of complete_task.
type CompleteTaskInput struct {
	Summary string `json:"summary" jsonschema:"Brief summary of what was accomplished"`
}

// CompleteTask returns the complete_task tool.
func CompleteTask() tool.Tool {
	return tool.New(tool.Spec[CompleteTaskInput]{
		Name:        "complete_task",
		Title:       "Mark the task complete",
		Description: "Signal that the current task/phase is complete. Only use when validation passes.",
		Idempotent:  true,
	}, func(_ context.Context, env *tool.Env, in CompleteTaskInput) (*TextOutput, error) {
		st := stateOf(env)
		if st.Coordination == nil {
			st.Coordination = &Coordination{}
		}
		st.Coordination.Complete(in.Summary)
		return &TextOutput{Text: "Task marked complete: " + in.Summary}, nil
	})
}

// ReplyQueryInput is the input of reply_query.
type ReplyQueryInput struct {
	QueryID string `json:"query_id" jsonschema:"ID of the query to answer, as given when it arrived"`
	Reply   string `json:"reply" jsonschema:"The answer to send back to the loop that asked"`
}

// ReplyQuery returns the reply_query tool: the loop that received a query
// (over MCP, as a notification) answers it.
func ReplyQuery() tool.Tool {
	return tool.New(tool.Spec[ReplyQueryInput]{
		Name:        "reply_query",
		Title:       "Answer another loop's query",
		Description: "Answer a question another loop asked with query_loop. The query's ID comes with the query.",
		OpenWorld:   true,
	}, func(_ context.Context, env *tool.Env, in ReplyQueryInput) (*TextOutput, error) {
		c, terr := coordination(env, "reply_query")
		if terr != nil {
			return nil, terr
		}
		if err := c.Answer(in.QueryID, in.Reply); err != nil {
			return nil, toolErr(tool.InvalidInput, "%v: it was answered already, or the id is wrong", err)
		}
		return &TextOutput{Text: "Replied to query " + in.QueryID}, nil
	})
}
