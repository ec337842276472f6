package tool

import (
	"context"
	"errors"
)

// Prompt is what a tool asks the user: to approve a plan, or to answer
// questions.
type Prompt struct {
	// Message introduces the prompt.
	Message string
	// Plan, for a plan approval, is the plan the user approves or rejects.
	Plan string
	// Questions, for questions, are 1 to 4 questions with their options.
	Questions []Question
}

// Question is one question with the options the user chooses among.
type Question struct {
	Question    string
	Header      string
	Options     []Option
	MultiSelect bool
}

// Option is one choice of a question.
type Option struct {
	Label       string
	Description string
}

// Reply is the user's answer to a Prompt.
type Reply struct {
	// Accepted reports that the user approved the plan, or answered the
	// questions; false is a rejection or a dismissal.
	Accepted bool
	// Answers maps each question's text to the label chosen (several
	// labels of a multiple choice joined by ", "), or to the user's own
	// text.
	Answers map[string]string
	// Feedback is what the user wrote when rejecting a plan.
	Feedback string
}

// AskFunc asks the user a Prompt.
type AskFunc func(ctx context.Context, p Prompt) (Reply, error)

// ErrNoUser is the error of an AskFunc when no user can be asked (the MCP
// client cannot elicit, or the library host set no asker).
var ErrNoUser = errors.New("no user can be asked")
