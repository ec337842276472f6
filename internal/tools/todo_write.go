package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/hands-dev/hands/tool"
)

//go:embed todo_write.md
var todoWriteDescription string

// Todo is one task of the session's list.
type Todo struct {
	Content    string `json:"content" jsonschema:"a brief, actionable title in imperative form"`
	Status     string `json:"status" jsonschema:"pending, in_progress or completed"`
	ActiveForm string `json:"activeForm,omitempty" jsonschema:"present continuous form shown while the task is in progress"`
}

// todoStatuses are the valid statuses, in display order.
var todoStatuses = []string{"pending", "in_progress", "completed"}

// TodoWriteInput is the input of todo_write.
type TodoWriteInput struct {
	Todos []Todo `json:"todos" jsonschema:"the complete list of tasks; it replaces the current list"`
}

// TodoWriteOutput is what todo_write returns.
type TodoWriteOutput struct {
	// OldTodos is the list before the call; Todos the list now.
	OldTodos []Todo `json:"old_todos"`
	Todos    []Todo `json:"todos"`
	// Active is the in-progress task's activeForm (or content), if any.
	Active string `json:"active,omitempty"`
}

// Todos is a session's task list.
type Todos struct {
	mu    sync.Mutex
	items []Todo
}

// Replace sets the list and returns the previous one.
func (t *Todos) Replace(items []Todo) []Todo {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.items
	t.items = append([]Todo(nil), items...)
	return old
}

// List returns a copy of the list.
func (t *Todos) List() []Todo {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Todo(nil), t.items...)
}

// TodoWrite returns the todo_write tool.
func TodoWrite() tool.Tool {
	return tool.New(tool.Spec[TodoWriteInput]{
		Name:        "todo_write",
		Enums:       map[string][]string{"todos[].status": todoStatuses},
		Title:       "Update the task list",
		Description: todoWriteDescription,
		Idempotent:  true,
		Validate: func(_ context.Context, _ *tool.Env, in TodoWriteInput) (TodoWriteInput, error) {
			inProgress := 0
			for i, t := range in.Todos {
				if strings.TrimSpace(t.Content) == "" {
					return in, toolErr(tool.InvalidInput, "%s is empty; give each task a short imperative title", param(fmt.Sprintf("todos[%d].content", i)))
				}
				if !contains(todoStatuses, t.Status) {
					return in, toolErr(tool.InvalidInput, "%s %q is not valid; use one of %s", param(fmt.Sprintf("todos[%d].status", i)), t.Status, strings.Join(todoStatuses, ", ")).With("status", t.Status)
				}
				if t.Status == "in_progress" {
					inProgress++
				}
			}
			if inProgress > 1 {
				return in, toolErr(tool.InvalidInput, "%d tasks are in_progress; exactly one task should be in_progress at a time — mark the others pending or completed", inProgress)
			}
			return in, nil
		},
	}, func(_ context.Context, env *tool.Env, in TodoWriteInput) (*TodoWriteOutput, error) {
		st := stateOf(env)
		todos := in.Todos
		if todos == nil {
			todos = []Todo{}
		}
		out := &TodoWriteOutput{OldTodos: st.Todos.Replace(todos), Todos: todos}
		if out.OldTodos == nil {
			out.OldTodos = []Todo{}
		}
		for _, t := range todos {
			if t.Status == "in_progress" {
				out.Active = t.Content
				if t.ActiveForm != "" {
					out.Active = t.ActiveForm
				}
			}
		}
		return out, nil
	})
}

// Content renders the output as the native profile shows it: seed 003's
// message, then the list.
func (o *TodoWriteOutput) Content() []tool.Content {
	var b strings.Builder
	if o.Active != "" {
		fmt.Fprintf(&b, "Todo list updated. Active: %s", o.Active)
	} else {
		b.WriteString("Todo list updated.")
	}
	marks := map[string]string{"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}
	for _, t := range o.Todos {
		fmt.Fprintf(&b, "\n%s %s", marks[t.Status], t.Content)
	}
	return []tool.Content{tool.Text(b.String())}
}
